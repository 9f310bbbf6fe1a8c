// `node bench/pg-round-trips.ts`: how many statements (transactions, from pg_stat_database's
// xact_commit) one request of each read and write scenario costs on PostgreSQL. On a loaded
// machine every round trip waits for the database process to be scheduled, so this count, not
// the CPU work, decides a read's latency; it is steady where requests/s are noise. The idle
// rate of the process (job polling and the like) is measured first and taken off.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../test/helpers/server.ts";
import type { Probe } from "./lib/compare.ts";
import { commitCounter } from "./lib/pg-commits.ts";
import { benchDatabase, postgresEnv } from "./lib/pg-database.ts";
import { startWrenServer } from "./lib/processes.ts";
import { benchEnv, seed } from "./lib/seed.ts";
import { readProbes } from "./scenarios/reads.ts";
import { writeProbes } from "./scenarios/writes.ts";

const REQUESTS = 20;
const db = await benchDatabase(`wren_bench_trips_${process.pid}`);
const dataDir = await mkdtemp(join(tmpdir(), "wren-bench-trips-"));
const counter = commitCounter(db.url);
/** Committed transactions of the bench database so far (stats flushed by then). */
const commits = () => counter.commits();

try {
  const env = { ...benchEnv(dataDir, await freePort()), ...postgresEnv(db.url) };
  const seeded = await seed(env, {
    statuses: 1_000,
    authors: 100,
    ownStatuses: REQUESTS,
    followTargets: REQUESTS,
  });
  const wren = await startWrenServer(env);
  try {
    const url = env.WREN_PUBLIC_URL as string;
    const idleFrom = await commits();
    const idleTo = await commits();
    // Per commits() call (one 1.5 s wait plus its own query).
    const idle = idleTo - idleFrom;
    const rows: string[] = [];
    const probes: Probe[] = [...readProbes(seeded), ...writeProbes(seeded)];
    for (const probe of probes) {
      // One warm-up request: first reads fill per-process memos.
      const request = async (n: number) => {
        const res = await fetch(`${url}${probe.paths?.[n] ?? probe.path}`, {
          method: probe.method,
          headers: probe.headers ?? {},
          ...(probe.body === undefined ? {} : { body: probe.body }),
        });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${probe.name}: ${res.status}`);
      };
      await request(0);
      const before = await commits();
      const started = performance.now();
      for (let n = 1; n < REQUESTS; n++) await request(n);
      const ms = (performance.now() - started) / (REQUESTS - 1);
      const after = await commits();
      const perRequest = (after - before - idle) / (REQUESTS - 1);
      rows.push(`| ${probe.name} | ${perRequest.toFixed(1)} | ${ms.toFixed(1)} |`);
    }
    process.stdout.write(
      `| scenario | transactions per request | ms per request (one at a time) |\n| --- | --- | --- |\n${rows.join("\n")}\n`,
    );
  } finally {
    await wren.stop();
  }
} finally {
  await counter.close();
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}
