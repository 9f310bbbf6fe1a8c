import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mainThreadSchedule, serverCommand } from "../../bench/lib/processes.ts";

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

describe("serverCommand", () => {
  it("puts Node's own flags before the entry, where Node reads them, and the wrapper first", () => {
    const command = serverCommand({
      tree: "/tmp/tree",
      wrapper: ["env", "A=1"],
      nodeFlags: ["--max-semi-space-size=64"],
      role: "web",
    });
    assert.deepEqual(command, [
      "env",
      "A=1",
      process.execPath,
      "--max-semi-space-size=64",
      "/tmp/tree/src/cli/main.ts",
      "serve",
      "--role",
      "web",
    ]);
  });

  it("starts this checkout's entry with no flags by default", () => {
    const [node, entry, ...rest] = serverCommand();
    assert.equal(node, process.execPath);
    assert.match(entry as string, /src\/cli\/main\.ts$/);
    assert.deepEqual(rest, ["serve"]);
  });
});
