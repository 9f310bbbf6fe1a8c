// Where the CPU of a span goes, by process and by kind of thread (Linux /proc): for the fan-out,
// Wren's main thread (the event loop: HTTP client, job runner, stores), its libuv workers (the
// thread pool: the RSA signatures, file writes and fsyncs), V8's workers (garbage collection,
// compilation), the simulated peers (their verification), and the whole machine's busy time
// against what its cores could give (how close to CPU-bound the span was; other tenants'
// work included). Thread times come from schedstat (nanoseconds on a CPU), finer than the
// 10 ms ticks of /proc/…/stat over a span of a second or two.

import { readdir, readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";

/** Milliseconds on a CPU so far, by thread kind (`comm`: MainThread, libuv-worker, V8Worker…). */
export async function threadMilliseconds(pid: number): Promise<Map<string, number>> {
  const byKind = new Map<string, number>();
  for (const tid of await readdir(`/proc/${pid}/task`).catch(() => [] as string[])) {
    try {
      const [comm, schedstat] = await Promise.all([
        readFile(`/proc/${pid}/task/${tid}/comm`, "utf8"),
        readFile(`/proc/${pid}/task/${tid}/schedstat`, "utf8"),
      ]);
      const kind = tid === String(pid) ? "main" : comm.trim();
      const ms = Number(schedstat.split(" ")[0]) / 1e6;
      byKind.set(kind, (byKind.get(kind) ?? 0) + ms);
    } catch {
      // The thread ended meanwhile: its time is lost to the span (rare, short-lived helpers).
    }
  }
  return byKind;
}

/** Milliseconds every core of the machine was busy so far (/proc/stat: all but idle, iowait). */
async function machineBusyMilliseconds(): Promise<number> {
  const line = (await readFile("/proc/stat", "utf8")).split("\n")[0] ?? "";
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return (total - idle) * 10;
}

export interface SplitSample {
  at: number;
  server: Map<string, number>;
  peers: number[];
  machine: number;
}

export async function sampleSplit(serverPid: number, peerPids: number[]): Promise<SplitSample> {
  const [server, peers, machine] = await Promise.all([
    threadMilliseconds(serverPid),
    Promise.all(
      peerPids.map(async (pid) =>
        [...(await threadMilliseconds(pid)).values()].reduce((a, b) => a + b, 0),
      ),
    ),
    machineBusyMilliseconds(),
  ]);
  return { at: performance.now(), server, peers, machine };
}

/** The spans' CPU added up, as one line per item, in ms per delivery. */
export function describeSplit(spans: [SplitSample, SplitSample][], deliveries: number): string[] {
  const server = new Map<string, number>();
  let peers = 0;
  let machine = 0;
  let wall = 0;
  for (const [before, after] of spans) {
    for (const [kind, ms] of after.server) {
      server.set(kind, (server.get(kind) ?? 0) + ms - (before.server.get(kind) ?? 0));
    }
    peers += after.peers.reduce((a, b) => a + b, 0) - before.peers.reduce((a, b) => a + b, 0);
    machine += after.machine - before.machine;
    wall += after.at - before.at;
  }
  const per = (ms: number) => (ms / deliveries).toFixed(3);
  const serverTotal = [...server.values()].reduce((a, b) => a + b, 0);
  const cores = availableParallelism();
  return [
    `CPU per delivery over the rounds' spans (${deliveries} deliveries, ${(wall / 1000).toFixed(2)} s):`,
    `  server, all threads   ${per(serverTotal)} ms`,
    ...[...server]
      .sort((a, b) => b[1] - a[1])
      .map(([kind, ms]) => `    ${kind.padEnd(20)}${per(ms)} ms`),
    `  peers (verifying)     ${per(peers)} ms`,
    `  machine busy          ${per(machine)} ms (${((machine / (wall * cores)) * 100).toFixed(0)}% of ${cores} cores over the spans)`,
  ];
}
