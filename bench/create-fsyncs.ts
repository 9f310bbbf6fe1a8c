// `node bench/create-fsyncs.ts [--tree DIR]… [--rounds N] [--seconds S] [--connections C]
// [--calls NAME,…] [--node-flags "FLAG …"]`:
// status creation on the json-file backend, per created status: the server's CPU time, its main
// thread's (and that thread's shares of the wall time running and waiting for a CPU: together
// near 100%, the event loop is what bounds the rate), and its fsync-family system calls (and
// any named with --calls), counted by strace attached to every thread of the server for the
// load only (a second, separate load per round, since strace slows the server). Each round runs
// every tree in turn (this checkout first, then each --tree, e.g. an older commit unpacked with
// `git archive <commit> | tar -x -C DIR` and a link to node_modules) on freshly seeded data;
// the figures are the median over the rounds, and for CPU also the least (interference only
// ever adds CPU time). Also the raw durable write loop of the status
// file's bytes (bench/lib/raw-writes.ts) once per round, the storage limit the bench compares
// status creation with. Needs strace.

import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seedForCreates } from "./lib/create-seed.ts";
import { cpuTimes, mainThreadSchedule, runLoad, startWrenServer } from "./lib/processes.ts";
import { rawDurableWriteRate } from "./lib/raw-writes.ts";
import { removeAtExit } from "./lib/removal.ts";
import { median } from "./lib/stats.ts";
import { parseStraceSummary, traceThreads } from "./lib/strace.ts";

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = argv.indexOf(name);
  return at < 0 ? fallback : Number(argv[at + 1]);
};
const here = new URL("../", import.meta.url).pathname;
interface Variant {
  label: string;
  tree: string;
  nodeFlags: readonly string[];
}
const nodeFlags = argv.flatMap((arg, i) => (argv[i - 1] === "--node-flags" ? arg.split(" ") : []));
const variants: Variant[] = [
  { label: here, tree: here, nodeFlags: [] },
  ...argv.flatMap((arg, i) =>
    argv[i - 1] === "--tree" ? [{ label: arg, tree: arg, nodeFlags: [] }] : [],
  ),
  ...(nodeFlags.length > 0
    ? [{ label: `${here} ${nodeFlags.join(" ")}`, tree: here, nodeFlags }]
    : []),
];
const rounds = option("--rounds", 3);
const seconds = option("--seconds", 5);
const connections = option("--connections", 50);
// `--calls write,futex,…` counts other system calls too (by strace's names).
const extraCalls = argv.flatMap((arg, i) => (argv[i - 1] === "--calls" ? arg.split(",") : []));
const CALLS = ["fsync", "fdatasync", "rename", "unlink", "openat", ...extraCalls];

interface Figures {
  rps: number;
  cpuPerCreate: number;
  /** User CPU alone: the system part swings with other processes' disk traffic (fsync). */
  userPerCreate: number;
  /** The main thread's CPU per create: the event loop's own work. */
  mainPerCreate: number;
  /** The main thread's CPU over the load's wall time. */
  mainBusy: number;
  /** Its time runnable but waiting for a CPU, over the wall time (other processes' share). */
  mainWaiting: number;
  callsPerCreate: Record<string, number>;
  /** The load generator's own CPU per create (its share of the two cores). */
  loadPerCreate: number;
  /** Every process's CPU per create, the kernel's threads included (/proc/stat). */
  machinePerCreate: number;
  /** The cores' idle (and I/O wait) share of the load's wall time: ~0 means CPU-bound. */
  machineIdle: number;
}

/** The machine's CPU time so far, busy and idle (idle + iowait), in milliseconds, all cores. */
async function machineTimes(): Promise<{ busy: number; idle: number }> {
  const line = (await readFile("/proc/stat", "utf8")).split("\n")[0] ?? "";
  // cpu user nice system idle iowait irq softirq steal …, in clock ticks (100 per second).
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  const all = ticks.reduce((sum, t) => sum + t, 0);
  return { busy: (all - idle) * 10, idle: idle * 10 };
}

async function measure({ tree, nodeFlags }: Variant): Promise<Figures> {
  const dataDir = await mkdtemp(join(tmpdir(), "wren-create-fsyncs-"));
  const traceDir = await mkdtemp(join(tmpdir(), "wren-create-strace-"));
  removeAtExit(dataDir);
  removeAtExit(traceDir);
  const { env, probe } = await seedForCreates(dataDir);
  const wren = await startWrenServer(env, { tree, nodeFlags });
  try {
    const pid = wren.process.pid as number;
    const load = (duration: number) =>
      runLoad({
        url: `${env.WREN_PUBLIC_URL}${probe.path}`,
        method: probe.method,
        connections,
        duration,
        headers: probe.headers ?? {},
        ...(probe.body === undefined ? {} : { body: probe.body }),
      });
    await load(2); // warm-up: the optimising compiler's first work
    const before = await cpuTimes(pid);
    const mainBefore = await mainThreadSchedule(pid);
    const machineBefore = await machineTimes();
    const result = await load(seconds);
    const machineAfter = await machineTimes();
    const after = await cpuTimes(pid);
    const mainAfter = await mainThreadSchedule(pid);
    const main = mainAfter.running - mainBefore.running;
    const user = after.user - before.user;
    const spent = user + after.system - before.system;
    const created = Math.max(result.requests - result.non2xx, 1);
    const file = join(traceDir, "strace.txt");
    const stop = await traceThreads(pid, file, CALLS);
    const traced = await load(seconds);
    await stop();
    const calls = parseStraceSummary(await readFile(file, "utf8"), CALLS);
    const creates = Math.max(traced.requests - traced.non2xx, 1);
    return {
      rps: result.rps,
      cpuPerCreate: (spent * 1000) / created,
      userPerCreate: (user * 1000) / created,
      mainPerCreate: (main * 1000) / created,
      // The server is idle while the load process starts: the load's own seconds are the wall time.
      mainBusy: main / (seconds * 1000),
      mainWaiting: (mainAfter.waiting - mainBefore.waiting) / (seconds * 1000),
      callsPerCreate: Object.fromEntries(CALLS.map((c) => [c, (calls[c] ?? 0) / creates])),
      loadPerCreate: (result.cpuMs * 1000) / created,
      // The window includes the load process's start and end (a few tens of ms, idle).
      machinePerCreate: ((machineAfter.busy - machineBefore.busy) * 1000) / created,
      machineIdle:
        (machineAfter.idle - machineBefore.idle) /
        (machineAfter.idle - machineBefore.idle + machineAfter.busy - machineBefore.busy),
    };
  } finally {
    // The load's last requests may still be in flight: answered before the stop.
    await new Promise((r) => setTimeout(r, 1000));
    await wren.stop();
  }
}

const byVariant = new Map<string, Figures[]>(variants.map((v) => [v.label, []]));
const raw: number[] = [];
const statusBytes = Buffer.alloc(1400, "x"); // about a status file of the probe's text
for (let round = 0; round < rounds; round++) {
  raw.push(await rawDurableWriteRate(statusBytes, { seconds, concurrency: connections }));
  for (const variant of variants) {
    const figures = await measure(variant);
    byVariant.get(variant.label)?.push(figures);
    const calls = CALLS.map((c) => `${c} ${figures.callsPerCreate[c]?.toFixed(2)}`).join(", ");
    process.stdout.write(
      `round ${round + 1} ${variant.label}: ${Math.round(figures.rps)} creates/s, ` +
        `${Math.round(figures.cpuPerCreate)} µs CPU/create ` +
        `(${Math.round(figures.userPerCreate)} µs user; main thread ` +
        `${Math.round(figures.mainPerCreate)} µs, busy ${Math.round(figures.mainBusy * 100)}%, ` +
        `waiting for a CPU ${Math.round(figures.mainWaiting * 100)}%); ` +
        `load generator ${Math.round(figures.loadPerCreate)} µs/create, machine ` +
        `${Math.round(figures.machinePerCreate)} µs/create, idle ${Math.round(figures.machineIdle * 100)}%; ` +
        `per create: ${calls}\n`,
    );
  }
}
process.stdout.write(`raw durable write loop: ${raw.map(Math.round).join(", ")}/s\n`);
for (const [label, list] of byVariant) {
  const calls = CALLS.map(
    (c) => `${c} ${median(list.map((f) => f.callsPerCreate[c] ?? 0)).toFixed(2)}`,
  ).join(", ");
  const ratios = list.map((f, i) => f.rps / (raw[i] as number));
  process.stdout.write(
    `median ${label}: ${Math.round(median(list.map((f) => f.rps)))} creates/s ` +
      `(${Math.round(median(ratios) * 100)}% of the raw loop, same round), ` +
      `CPU/create ${Math.round(Math.min(...list.map((f) => f.cpuPerCreate)))} µs least, ` +
      `${Math.round(median(list.map((f) => f.cpuPerCreate)))} µs median, user CPU/create ` +
      `${Math.round(Math.min(...list.map((f) => f.userPerCreate)))} µs least, ` +
      `${Math.round(median(list.map((f) => f.userPerCreate)))} µs median; main thread ` +
      `${Math.round(median(list.map((f) => f.mainPerCreate)))} µs/create median, busy ` +
      `${Math.round(median(list.map((f) => f.mainBusy)) * 100)}% median, waiting for a CPU ` +
      `${Math.round(median(list.map((f) => f.mainWaiting)) * 100)}% median; load generator ` +
      `${Math.round(median(list.map((f) => f.loadPerCreate)))} µs/create, machine ` +
      `${Math.round(median(list.map((f) => f.machinePerCreate)))} µs/create, idle ` +
      `${Math.round(median(list.map((f) => f.machineIdle)) * 100)}% (medians); per create: ${calls}\n`,
  );
}
