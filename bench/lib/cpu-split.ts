// Where a server's CPU goes, read from /proc around a measurement (Linux): user and system time
// of the whole process, the main thread's share (the event loop; the rest is the garbage
// collector's helpers, the compiler's and the thread pool), and the main thread's context
// switches (a voluntary one is the event loop going to sleep in epoll_wait with nothing to do:
// per request, how finely the loop's work is batched). And the system calls of a span, counted
// by `strace -c -f` (which slows the process a lot, but not what it calls per request).

import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";

export interface CpuSplit {
  /** Milliseconds of user and system CPU, all threads. */
  user: number;
  system: number;
  /** Milliseconds the main thread ran (schedstat). */
  main: number;
  voluntary: number;
  involuntary: number;
  /**
   * Milliseconds of CPU of every PostgreSQL process on the machine (its backends, autovacuum,
   * the WAL writer…: what competes with Wren for the cores; other users' included).
   */
  database: number;
}

/** A /proc stat line's fields after the command: utime and stime at 11 and 12, in 10 ms ticks. */
function statFields(stat: string): string[] {
  return stat.split(") ")[1]?.split(" ") ?? [];
}

async function databaseMilliseconds(): Promise<number> {
  let total = 0;
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      if (!stat.includes("(postgres)")) continue;
      const fields = statFields(stat);
      total += (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

export async function cpuSplit(pid: number): Promise<CpuSplit> {
  const [stat, schedstat, status, database] = await Promise.all([
    readFile(`/proc/${pid}/stat`, "utf8"),
    readFile(`/proc/${pid}/task/${pid}/schedstat`, "utf8"),
    readFile(`/proc/${pid}/task/${pid}/status`, "utf8"),
    databaseMilliseconds(),
  ]);
  const fields = statFields(stat);
  const count = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1]);
  return {
    user: Number(fields[11]) * 10,
    system: Number(fields[12]) * 10,
    main: Number(schedstat.split(" ")[0]) / 1e6,
    voluntary: count("voluntary_ctxt_switches"),
    involuntary: count("nonvoluntary_ctxt_switches"),
    database,
  };
}

/** `after - before`, field by field. */
export function splitSpent(before: CpuSplit, after: CpuSplit): CpuSplit {
  return {
    user: after.user - before.user,
    system: after.system - before.system,
    main: after.main - before.main,
    voluntary: after.voluntary - before.voluntary,
    involuntary: after.involuntary - before.involuntary,
    database: after.database - before.database,
  };
}

/**
 * Starts `strace -c -f` on a process; the returned function stops it and gives the calls made,
 * by system call, most first.
 */
export function countSyscalls(pid: number, file: string): () => Promise<Map<string, number>> {
  const strace = spawn("strace", ["-c", "-f", "-p", String(pid), "-o", file], {
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => strace.once("exit", () => resolve()));
  return async () => {
    strace.kill("SIGINT");
    await exited;
    return straceCalls(await readFile(file, "utf8"));
  };
}

/** The calls by system call in `strace -c` output, most first (the total left out). */
export function straceCalls(summary: string): Map<string, number> {
  const calls = new Map<string, number>();
  // "% time     seconds  usecs/call     calls    errors syscall": errors may be blank.
  for (const line of summary.split("\n")) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?([a-z_0-9]+)\s*$/.exec(line);
    if (m && m[2] !== "total") calls.set(m[2] as string, Number(m[1]));
  }
  return new Map([...calls].sort((a, b) => b[1] - a[1]));
}
