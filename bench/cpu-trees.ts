// `node bench/cpu-trees.ts <side> <side>… [--rounds N] [--seconds S] [--targets T] [probe…]`: the server's CPU
// time per request under load (10 connections) of several Wren servers, a side each, written
// `tree` (json-file) or `tree:postgres` (e.g. an unpacked `git archive` of the last commit, with
// a node_modules link, against the working tree: `/tmp/before:postgres .:postgres`; or one tree
// on both backends: `.:json .:postgres`). All run at once, each on its own seeded data; the load
// goes to one at a time, in rounds of S seconds, whose order rotates, so the machine's load
// drifts alike for every side. CPU per request (user + system from /proc) moves far less with
// the other processes on a shared machine than requests/s or one request's time
// (bench/pg-compare-trees.ts), and load is where a change to the CPU per request shows. Each
// tree runs its own bench code (seed, probes), as bench/compare-trees.ts does. Prints the
// median over the rounds, and the range, per probe and side. `--targets` seeds that many own
// statuses of the viewer and accounts to follow (default 4; the full bench seeds 40,000, which
// its 1,000-status reads then run beside). `--split` adds, per probe, where each side's CPU went
// (user and system time, the main thread's, its context switches, and the CPU of all PostgreSQL
// processes on the machine, per request, medians over the rounds); `--strace` one more round per
// side under `strace -c -f`, with the system calls per request (lib/cpu-split.ts).

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Probe } from "./lib/compare.ts";
import { type CpuSplit, countSyscalls, cpuSplit, splitSpent } from "./lib/cpu-split.ts";
import { median } from "./lib/stats.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "2" },
    targets: { type: "string", default: "4" },
    split: { type: "boolean", default: false },
    strace: { type: "boolean", default: false },
  },
});
const isSide = (arg: string) => /^[^ ]*(:(postgres|json))?$/.test(arg) && !arg.includes(" ");
const sideArgs = positionals.filter(isSide);
const wanted = positionals.filter((arg) => !isSide(arg));
if (sideArgs.length === 0) throw new Error("usage: cpu-trees.ts <tree[:postgres]>… [probe…]");
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);

interface Side {
  name: string;
  probes: Probe[];
  url: string;
  pid: number;
  runLoad: (spec: object) => Promise<{ requests: number; non2xx: number }>;
  cpuMilliseconds: (pid: number) => Promise<number>;
  perRequest: Map<string, number[]>;
  /** Per probe, each round's split per request (--split). */
  splits: Map<string, CpuSplit[]>;
  stop(): Promise<void>;
}

async function start(arg: string, n: number): Promise<Side> {
  const [path, backend] = arg.split(":") as [string, string | undefined];
  const tree = resolve(path);
  const postgres = backend === "postgres";
  const { freePort } = await import(join(tree, "test/helpers/server.ts"));
  const { benchDatabase, postgresEnv } = await import(join(tree, "bench/lib/pg-database.ts"));
  const processes = await import(join(tree, "bench/lib/processes.ts"));
  const { benchEnv, seed } = await import(join(tree, "bench/lib/seed.ts"));
  const { readProbes } = await import(join(tree, "bench/scenarios/reads.ts"));
  const db = postgres ? await benchDatabase(`wren_bench_cpu_${n}_${process.pid}`) : undefined;
  const dataDir = await mkdtemp(join(tmpdir(), "wren-bench-cpu-"));
  const env = { ...benchEnv(dataDir, await freePort()), ...(db ? postgresEnv(db.url) : {}) };
  const seeded = await seed(env, {
    statuses: 1_000,
    authors: 100,
    ownStatuses: Number(values.targets),
    followTargets: Number(values.targets),
  });
  const wren = await processes.startWrenServer(env);
  return {
    name: arg,
    probes: readProbes(seeded),
    url: env.WREN_PUBLIC_URL,
    pid: wren.process.pid as number,
    runLoad: processes.runLoad,
    cpuMilliseconds: processes.cpuMilliseconds,
    perRequest: new Map(),
    splits: new Map(),
    async stop() {
      await wren.stop();
      await db?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function round(side: Side, probe: Probe, duration: number, record: boolean): Promise<void> {
  const before = await side.cpuMilliseconds(side.pid);
  const splitBefore = values.split ? await cpuSplit(side.pid) : undefined;
  const result = await side.runLoad({
    url: `${side.url}${probe.path}`,
    method: probe.method,
    connections: 10,
    duration,
    ...(probe.headers ? { headers: probe.headers } : {}),
  });
  const spent = (await side.cpuMilliseconds(side.pid)) - before;
  const splitAfter = splitBefore ? await cpuSplit(side.pid) : undefined;
  if (result.non2xx > 0) throw new Error(`${side.name} ${probe.name}: ${result.non2xx} non-2xx`);
  if (!record) return;
  if (splitBefore && splitAfter) {
    const n = Math.max(result.requests, 1);
    const s = splitSpent(splitBefore, splitAfter);
    const perRequest: CpuSplit = {
      user: (s.user * 1000) / n,
      system: (s.system * 1000) / n,
      main: (s.main * 1000) / n,
      voluntary: s.voluntary / n,
      involuntary: s.involuntary / n,
      database: (s.database * 1000) / n,
    };
    side.splits.set(probe.name, [...(side.splits.get(probe.name) ?? []), perRequest]);
  }
  const list = side.perRequest.get(probe.name) ?? [];
  list.push((spent * 1000) / Math.max(result.requests, 1));
  side.perRequest.set(probe.name, list);
}

/** One round under strace: the system calls per request, most first. */
async function straced(side: Side, probe: Probe): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "wren-bench-strace-"));
  const stop = countSyscalls(side.pid, join(dir, "strace.txt"));
  // strace attaches to each thread in turn.
  await new Promise((r) => setTimeout(r, 300));
  const result = await side.runLoad({
    url: `${side.url}${probe.path}`,
    method: probe.method,
    connections: 10,
    duration: seconds,
    ...(probe.headers ? { headers: probe.headers } : {}),
  });
  const calls = await stop();
  await rm(dir, { recursive: true, force: true });
  const n = Math.max(result.requests, 1);
  const total = [...calls.values()].reduce((a, b) => a + b, 0);
  const top = [...calls]
    .slice(0, 8)
    .map(([call, count]) => `${call} ${(count / n).toFixed(2)}`)
    .join(", ");
  process.stdout.write(
    `|   ${side.name} under strace: ${(total / n).toFixed(2)} system calls per request (${top}) |\n`,
  );
}

const sides: Side[] = [];
try {
  for (const [n, arg] of sideArgs.entries()) sides.push(await start(arg, n));
  const [first] = sides as [Side];
  const names = first.probes
    .map((p) => p.name)
    .filter((name) => wanted.length === 0 || wanted.includes(name));
  process.stdout.write(`| probe | ${sides.map((s) => s.name).join(" | ")} |\n`);
  for (const name of names) {
    const probeOf = (side: Side) => side.probes.find((p) => p.name === name) as Probe;
    // A first second each warms the optimising compiler and the per-process memos up.
    for (const side of sides) await round(side, probeOf(side), 1, false);
    for (let r = 0; r < rounds; r++) {
      const order = sides.map((_, i) => sides[(i + r) % sides.length] as Side);
      for (const side of order) await round(side, probeOf(side), seconds, true);
    }
    const cell = (side: Side) => {
      const list = side.perRequest.get(name) ?? [];
      const [low, high] = [Math.min(...list), Math.max(...list)].map(Math.round);
      return `${Math.round(median(list))} (${low}–${high})`;
    };
    process.stdout.write(`| ${name} | ${sides.map(cell).join(" | ")} |\n`);
    if (values.split) {
      for (const side of sides) {
        const list = side.splits.get(name) ?? [];
        const of = (field: keyof CpuSplit) => median(list.map((s) => s[field]));
        process.stdout.write(
          `|   ${side.name}: user ${of("user").toFixed(0)} µs, system ${of("system").toFixed(0)} µs, main thread ${of("main").toFixed(0)} µs, voluntary switches ${of("voluntary").toFixed(3)}, involuntary ${of("involuntary").toFixed(3)} per request; PostgreSQL processes ${of("database").toFixed(0)} µs |\n`,
        );
      }
    }
    if (values.strace) {
      for (const side of sides) await straced(side, probeOf(side));
    }
  }
} finally {
  for (const side of sides) await side.stop();
}
