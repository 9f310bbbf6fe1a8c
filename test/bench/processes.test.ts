import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mainThreadSchedule } from "../../bench/lib/processes.ts";

describe("mainThreadSchedule", () => {
  // Linux's /proc/<pid>/task/<tid>/schedstat, as the bench tools (strace, perf) are Linux's.
  it("reads the main thread's running and waiting time, which grow with its work", async () => {
    const before = await mainThreadSchedule(process.pid);
    assert.ok(before.running > 0, `running ${before.running} ms`);
    assert.ok(before.waiting >= 0, `waiting ${before.waiting} ms`);
    const until = performance.now() + 50;
    while (performance.now() < until) {
      // Busy on this (the main) thread.
    }
    const after = await mainThreadSchedule(process.pid);
    assert.ok(after.running > before.running, "the busy loop ran on the main thread");
    assert.ok(after.waiting >= before.waiting);
  });
});
