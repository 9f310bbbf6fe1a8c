import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  emptyReview,
  mayTrend,
  nameId,
  requiresReview,
  reviewIdOf,
  trendableShown,
} from "./trend-review.ts";

describe("trend reviews", () => {
  it("let unreviewed items trend unless review is required; rejected ones never", () => {
    const none = undefined;
    const open = emptyReview("tag", "cats");
    const approved = { ...open, trendable: true, reviewedAt: "2026-01-01T00:00:00.000Z" };
    const rejected = { ...open, trendable: false, reviewedAt: "2026-01-01T00:00:00.000Z" };
    for (const required of [false, true]) {
      assert.equal(mayTrend(none, required), !required);
      assert.equal(mayTrend(open, required), !required);
      assert.equal(mayTrend(approved, required), true);
      assert.equal(mayTrend(rejected, required), false);
      assert.equal(trendableShown(open, required), !required);
    }
    // An unusable hashtag never trends, approved or not.
    assert.equal(mayTrend({ ...approved, usable: false }, false), false);
  });

  it("ask for a review only of what trended and nobody decided", () => {
    const open = emptyReview("status", "123");
    assert.equal(requiresReview(open), false);
    const asked = { ...open, requestedReviewAt: "2026-01-01T00:00:00.000Z" };
    assert.equal(requiresReview(asked), true);
    assert.equal(requiresReview({ ...asked, reviewedAt: "2026-01-02T00:00:00.000Z" }), false);
  });

  it("derive stable numeric ids, distinct per kind", () => {
    assert.match(nameId("cats"), /^[0-9]+$/);
    assert.equal(reviewIdOf("tag", "cats"), nameId("cats"));
    assert.equal(reviewIdOf("status", "123"), "123");
    assert.notEqual(reviewIdOf("link", "x.example"), reviewIdOf("publisher", "x.example"));
    assert.ok(Number(nameId("cats")) <= Number.MAX_SAFE_INTEGER);
  });
});
