// A short run of the crash suite (test/crash-suite, `npm run test:crash` for the long one): a
// child `wren serve` SIGKILLed mid-writes three times over one data directory, each restart
// checked for torn files, lost acknowledged writes, indexes that disagree with the files and
// a job queue that no longer closes polls; posts cut off by a kill are retried with their
// Idempotency-Key and stored once, and restarts find the killed server's lock naming their pid.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCrashCycles } from "../crash-suite/cycles.ts";

describe("crash cycles (short)", () => {
  it("keeps every acknowledged write, tears no file and keeps indexes and queue right", async () => {
    const summary = await runCrashCycles({
      cycles: 3,
      users: 4,
      seed: 7,
      maxRunMs: 600,
    });
    assert.equal(summary.cycles, 3);
    assert.ok(summary.acknowledged > 0);
    assert.equal(summary.shortPollsClosed, 3);
    assert.equal(summary.pidReuseRestarts, 2, "the second and the last start reused the pid");
  });
});
