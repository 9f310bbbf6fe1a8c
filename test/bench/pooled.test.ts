// The PostgreSQL reads beside json-file are judged on two pairs of processes together: one pair
// can sit 35% apart from another of the same trees, so a probe's ratio is the median of every
// pair's rounds, not one pair's.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Comparison, pooled } from "../../bench/lib/compare.ts";

const run = (ratios: number[], wrenRps: number): Comparison[] => [
  {
    name: "a status",
    wrenRps,
    referenceRps: 1_000,
    ratio: Number.NaN,
    reference: "json-file",
    roundRatios: ratios,
  },
  {
    name: "hashtag timeline",
    wrenRps: 1,
    referenceRps: 2,
    ratio: 0.5,
    reference: "json-file",
    roundRatios: [0.5],
  },
];

describe("pooled comparisons", () => {
  it("takes each probe's ratio as the median of every pair's rounds", () => {
    const [status, hashtag] = pooled([run([0.6, 0.62, 0.58], 600), run([0.95, 0.9, 1.0], 950)]);
    // Six rounds: 0.58 0.6 0.62 | 0.9 0.95 1.0 → (0.62 + 0.9) / 2; neither pair's own median.
    assert.equal(status?.ratio, 0.76);
    assert.deepEqual(status?.roundRatios, [0.6, 0.62, 0.58, 0.95, 0.9, 1.0]);
    assert.equal(status?.wrenRps, 775);
    assert.equal(status?.reference, "json-file");
    assert.equal(hashtag?.ratio, 0.5);
  });

  it("leaves a single run's figures as they were", () => {
    const [status] = pooled([run([0.7, 0.9, 0.8], 800)]);
    assert.equal(status?.ratio, 0.8);
    assert.equal(status?.wrenRps, 800);
  });
});
