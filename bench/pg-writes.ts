// `node bench/pg-writes.ts [probe…] [--seconds N] [--connections N]`: the write scenarios on
// PostgreSQL alone, with where the CPU went: requests/s, and per request the Wren process's CPU
// and the database server's (every postgres process's, from /proc). When the write rate is far
// below what either side's CPU allows, the requests are waiting on each other (a shared row, a
// retry loop), not working; this tells the two apart without a profiler. Last, the raw rate of
// status inserts alone (lib/raw-pg-writes.ts): the database's floor for the create scenario.
// And the statements per request under that load (committed transactions, lib/pg-commits.ts):
// what is shared between requests (gathered signals, batched removals, held rate-limit and
// budget units) shows there, where a request measured alone (pg-statements.ts) sends it whole.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../test/helpers/server.ts";
import { commitCounter } from "./lib/pg-commits.ts";
import { postgresCpu } from "./lib/pg-cpu.ts";
import { benchDatabase, postgresEnv } from "./lib/pg-database.ts";
import { cpuMilliseconds, runLoad, startWrenServer } from "./lib/processes.ts";
import { rawPostgresWriteRate } from "./lib/raw-pg-writes.ts";
import { benchEnv, seed } from "./lib/seed.ts";
import { writeProbes } from "./scenarios/writes.ts";

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}
const seconds = option("--seconds", 4);
const connections = option("--connections", 50);
const wanted = process.argv
  .slice(2)
  .filter((a, i, all) => !a.startsWith("--") && !all[i - 1]?.startsWith("--"));

const db = await benchDatabase(`wren_bench_writes_${process.pid}`);
const dbName = new URL(db.url).pathname.slice(1);
const dataDir = await mkdtemp(join(tmpdir(), "wren-bench-writes-"));
try {
  const env = { ...benchEnv(dataDir, await freePort()), ...postgresEnv(db.url) };
  const seeded = await seed(env, {
    statuses: 1_000,
    authors: 100,
    ownStatuses: 20_000,
    followTargets: 20_000,
  });
  const wren = await startWrenServer(env);
  const counter = commitCounter(db.url);
  try {
    const pid = wren.process.pid as number;
    const rows: string[] = [];
    for (const probe of writeProbes(seeded)) {
      if (wanted.length > 0 && !wanted.includes(probe.name)) continue;
      const commitsBefore = await counter.commits();
      const [wrenBefore, pgBefore] = [await cpuMilliseconds(pid), await postgresCpu(dbName)];
      const result = await runLoad({
        url: `${env.WREN_PUBLIC_URL}${probe.path}`,
        method: probe.method,
        ...(probe.headers ? { headers: probe.headers } : {}),
        ...(probe.body === undefined ? {} : { body: probe.body }),
        ...(probe.paths ? { paths: probe.paths } : {}),
        connections,
        duration: seconds,
      });
      const [wrenAfter, pgAfter] = [await cpuMilliseconds(pid), await postgresCpu(dbName)];
      const done = Math.max(result.requests - result.non2xx, 1);
      // Jobs left after the load (removals, a card fetch) commit too: a little over the load's.
      const statements = ((await counter.commits()) - commitsBefore) / done;
      rows.push(
        `| ${probe.name} | ${result.rps.toFixed(0)} | ${result.latencyP50} | ${result.non2xx} | ${((wrenAfter - wrenBefore) / done).toFixed(1)} | ${((pgAfter.all - pgBefore.all) / done).toFixed(1)} | ${((pgAfter.ours - pgBefore.ours) / done).toFixed(2)} | ${statements.toFixed(2)} |`,
      );
    }
    const raw = await rawPostgresWriteRate(db.url, { seconds, concurrency: connections });
    process.stdout.write(
      `Raw status inserts, ${connections} clients on a pool of 10: ${raw.toFixed(0)}/s\n\n`,
    );
    process.stdout.write(
      `| scenario (${connections} clients, ${seconds} s) | requests/s | p50 ms | non-2xx | Wren CPU ms/request | PostgreSQL CPU ms/request | its backends' CPU ms/request | statements/request |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n${rows.join("\n")}\n`,
    );
  } finally {
    await counter.close();
    await wren.stop();
  }
} finally {
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}
