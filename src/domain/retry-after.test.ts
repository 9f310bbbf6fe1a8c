import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { retryAfterMs } from "./retry-after.ts";

describe("retryAfterMs", () => {
  const now = new Date("2026-11-26T12:00:00Z");
  it("reads delay-seconds and HTTP-dates", () => {
    assert.equal(retryAfterMs("120", now), 120_000);
    assert.equal(retryAfterMs(" 0 ", now), 0);
    assert.equal(retryAfterMs("Thu, 26 Nov 2026 12:05:00 GMT", now), 300_000);
    assert.equal(retryAfterMs("Thu, 26 Nov 2026 11:00:00 GMT", now), 0);
  });
  it("ignores what is absent or unreadable", () => {
    assert.equal(retryAfterMs(null, now), undefined);
    assert.equal(retryAfterMs(undefined, now), undefined);
    assert.equal(retryAfterMs("-5", now), undefined);
    assert.equal(retryAfterMs("1.5", now), undefined);
    assert.equal(retryAfterMs("soon", now), undefined);
  });
});
