// `node bench/pg-compare-trees.ts <before-tree> [after-tree] [--requests N]`: milliseconds per
// request, one at a time, of two checkouts of Wren on PostgreSQL (e.g. an unpacked
// `git archive` of the last commit, with a node_modules link, against the working tree). Each
// gets its own seeded database and server, both running at once, and their requests alternate
// one by one (which goes first alternating too), so the machine's load drifts alike for both:
// runs of bench/pg-round-trips.ts one tree after the other differed by 2–5× on a loaded
// machine. Each tree runs its own bench code (seed, probes), as bench/compare-trees.ts does.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Probe } from "./lib/compare.ts";
import { median } from "./lib/stats.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { requests: { type: "string", default: "60" } },
});
if (positionals.length === 0) throw new Error("usage: pg-compare-trees.ts <before> [after]");
const trees = [positionals[0] as string, positionals[1] ?? "."].map((t) => resolve(t));
const requests = Number(values.requests);

interface Side {
  probes: Probe[];
  url: string;
  times: Map<string, number[]>;
  stop(): Promise<void>;
}

async function start(tree: string, n: number): Promise<Side> {
  const { freePort } = await import(join(tree, "test/helpers/server.ts"));
  const { benchDatabase, postgresEnv } = await import(join(tree, "bench/lib/pg-database.ts"));
  const { startWrenServer } = await import(join(tree, "bench/lib/processes.ts"));
  const { benchEnv, seed } = await import(join(tree, "bench/lib/seed.ts"));
  const { readProbes } = await import(join(tree, "bench/scenarios/reads.ts"));
  const { writeProbes } = await import(join(tree, "bench/scenarios/writes.ts"));
  const db = await benchDatabase(`wren_bench_compare_${n}_${process.pid}`);
  const dataDir = await mkdtemp(join(tmpdir(), "wren-bench-compare-"));
  const env = { ...benchEnv(dataDir, await freePort()), ...postgresEnv(db.url) };
  const seeded = await seed(env, {
    statuses: 1_000,
    authors: 100,
    ownStatuses: requests + 1,
    followTargets: requests + 1,
  });
  const wren = await startWrenServer(env);
  return {
    probes: [...readProbes(seeded), ...writeProbes(seeded)],
    url: env.WREN_PUBLIC_URL,
    times: new Map(),
    async stop() {
      await wren.stop();
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One request of the probe; its time when `record`. */
async function request(side: Side, index: number, n: number, record: boolean): Promise<void> {
  const probe = side.probes[index] as Probe;
  const started = performance.now();
  const res = await fetch(`${side.url}${probe.paths?.[n] ?? probe.path}`, {
    method: probe.method,
    headers: probe.headers ?? {},
    ...(probe.body === undefined ? {} : { body: probe.body }),
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${probe.name}: ${res.status}`);
  if (!record) return;
  const times = side.times.get(probe.name) ?? [];
  times.push(performance.now() - started);
  side.times.set(probe.name, times);
}

const sides: Side[] = [];
try {
  for (const [n, tree] of trees.entries()) sides.push(await start(tree, n));
  const [before, after] = sides as [Side, Side];
  for (const [index, probe] of before.probes.entries()) {
    // The first request of each warms per-process memos up and is not counted.
    for (let n = 0; n <= requests; n++) {
      for (const side of n % 2 === 0 ? [before, after] : [after, before]) {
        await request(side, index, n, n > 0);
      }
    }
    const ms = (side: Side) => median(side.times.get(probe.name) ?? []).toFixed(1);
    process.stdout.write(`| ${probe.name} | ${ms(before)} | ${ms(after)} |\n`);
  }
} finally {
  for (const side of sides) await side.stop();
}
