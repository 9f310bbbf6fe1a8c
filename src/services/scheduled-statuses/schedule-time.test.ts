// Reading `scheduled_at`: the forms clients send, and what is refused.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseScheduledAt } from "./schedule-time.ts";

describe("parseScheduledAt", () => {
  it("reads ISO 8601 times, a time without a zone and a date alone as UTC", () => {
    const cases: [string, string][] = [
      ["2030-01-02T03:04:05Z", "2030-01-02T03:04:05.000Z"],
      ["2030-01-02T03:04:05.678+02:00", "2030-01-02T01:04:05.678Z"],
      ["2030-01-02T03:04:05-0130", "2030-01-02T04:34:05.000Z"],
      ["2030-01-02T03:04", "2030-01-02T03:04:00.000Z"],
      ["2030-01-02 03:04:05", "2030-01-02T03:04:05.000Z"],
      ["2030-01-02", "2030-01-02T00:00:00.000Z"],
      [" 2030-01-02T03:04:05z ", "2030-01-02T03:04:05.000Z"],
    ];
    for (const [given, expected] of cases) {
      assert.equal(parseScheduledAt(given).toISOString(), expected, given);
    }
  });

  it("refuses what is not a time, or not a real day", () => {
    for (const given of [
      "",
      "soon",
      "2030-02-30",
      "2030-13-01",
      "2030-01-01T25:00",
      "1893542400",
    ]) {
      assert.throws(
        () => parseScheduledAt(given),
        (error: Error & { status?: number }) =>
          error.status === 422 && error.message === "Validation failed: Scheduled at is invalid",
        given,
      );
    }
  });
});
