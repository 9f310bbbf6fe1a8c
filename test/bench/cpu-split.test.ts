import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cpuSplit, splitSpent, straceCalls } from "../../bench/lib/cpu-split.ts";

// `strace -c -f` output as it prints it (the errors column blank where there were none).
const SUMMARY = `% time     seconds  usecs/call     calls    errors syscall
------ ----------- ----------- --------- --------- ----------------
 94.51    2.265379        7476       303        17 futex
  3.93    0.094271           8     11026           writev
  1.35    0.032268           2     11048         2 read
  0.16    0.003946           2      1342           epoll_pwait
------ ----------- ----------- --------- --------- ----------------
100.00    2.397026         100     23719        19 total
`;

describe("CPU split and system calls of a server", () => {
  it("reads strace's summary into calls by system call, most first, without the total", () => {
    assert.deepEqual(
      [...straceCalls(SUMMARY)],
      [
        ["read", 11048],
        ["writev", 11026],
        ["epoll_pwait", 1342],
        ["futex", 303],
      ],
    );
  });

  it("reads a process's user, system and main-thread time and its switches from /proc", async () => {
    const before = await cpuSplit(process.pid);
    // 100 ms of this thread's CPU (counted by the kernel, whatever else runs on the machine).
    const start = process.threadCpuUsage();
    let used = 0;
    while (used < 100_000) {
      const now = process.threadCpuUsage(start);
      used = now.user + now.system;
    }
    const spent = splitSpent(before, await cpuSplit(process.pid));
    // schedstat counts nanoseconds (read as ms); stat counts 10 ms ticks.
    assert.ok(spent.main >= 90, `main thread ${spent.main} ms`);
    assert.ok(spent.user + spent.system >= 70, `user ${spent.user}, system ${spent.system}`);
    for (const field of ["voluntary", "involuntary"] as const) {
      assert.ok(Number.isInteger(spent[field]) && spent[field] >= 0, field);
    }
    // Other users' PostgreSQL processes may end meanwhile: a number, not a sign.
    assert.ok(Number.isFinite(spent.database));
  });
});
