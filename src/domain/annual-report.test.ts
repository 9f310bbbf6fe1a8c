import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { archetypeOf, campaignYear, parseReportYear } from "./annual-report.ts";

describe("annual report rules", () => {
  it("opens the campaign from December 10th to 31st, UTC", () => {
    assert.equal(campaignYear(new Date("2026-12-09T23:59:59.999Z")), null);
    assert.equal(campaignYear(new Date("2026-12-10T00:00:00.000Z")), 2026);
    assert.equal(campaignYear(new Date("2026-12-31T23:59:59.999Z")), 2026);
    assert.equal(campaignYear(new Date("2027-01-01T00:00:00.000Z")), null);
    assert.equal(campaignYear(new Date("2026-06-15T12:00:00.000Z")), null);
  });

  it("reads four-digit years only", () => {
    assert.equal(parseReportYear("2026"), 2026);
    for (const bad of ["", "26", "20260", "2026.0", "-202", " 2026"]) {
      assert.equal(parseReportYear(bad), null, bad);
    }
  });

  it("picks the archetype in Mastodon's order", () => {
    const counts = { standalone: 0, replies: 0, reblogs: 0, polls: 0 };
    // Below 113 posts of any kind: a lurker, whatever the mix.
    assert.equal(archetypeOf({ ...counts, reblogs: 112 }), "lurker");
    assert.equal(archetypeOf({ ...counts, standalone: 40, reblogs: 81 }), "booster");
    assert.equal(archetypeOf({ ...counts, standalone: 40, reblogs: 80, polls: 4 }), "oracle");
    assert.equal(archetypeOf({ ...counts, standalone: 40, reblogs: 80, polls: 5 }), "pollster");
    assert.equal(archetypeOf({ ...counts, standalone: 40, replies: 81 }), "replier");
    assert.equal(archetypeOf({ ...counts, standalone: 100, replies: 100, reblogs: 100 }), "oracle");
  });
});
