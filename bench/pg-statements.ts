// `node bench/pg-statements.ts [--after-write] [probe…]`: the SQL statements one request of each
// read and write scenario sends to PostgreSQL, in order, read from the server's log
// (log_statement = all, set on the bench database only). Where bench/pg-round-trips.ts says how
// many, this says which. `--after-write`: the viewer posts a followers-only status between the
// two requests of each probe (its statements not counted), so the request measured follows a
// write, as under a steady stream of posts, instead of repeating one just answered.
// Needs the local server's log at /var/log/postgresql/ (Debian's layout).

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../test/helpers/server.ts";
import type { Probe } from "./lib/compare.ts";
import { benchDatabase, postgresEnv } from "./lib/pg-database.ts";
import { logStatements } from "./lib/pg-log.ts";
import { startWrenServer } from "./lib/processes.ts";
import { benchEnv, seed } from "./lib/seed.ts";
import { readProbes } from "./scenarios/reads.ts";
import { writeProbes } from "./scenarios/writes.ts";

const afterWrite = process.argv.includes("--after-write");
const wanted = process.argv.slice(2).filter((arg) => arg !== "--after-write");
const db = await benchDatabase(`wren_bench_statements_${process.pid}`);
const dataDir = await mkdtemp(join(tmpdir(), "wren-bench-statements-"));

try {
  const env = { ...benchEnv(dataDir, await freePort()), ...postgresEnv(db.url) };
  const seeded = await seed(env, {
    statuses: 1_000,
    authors: 100,
    ownStatuses: 4,
    followTargets: 4,
  });
  const log = await logStatements(db.url);
  const wren = await startWrenServer(env);
  try {
    const url = env.WREN_PUBLIC_URL as string;
    const probes: Probe[] = [...readProbes(seeded), ...writeProbes(seeded)].filter(
      (p) => wanted.length === 0 || wanted.includes(p.name),
    );
    for (const probe of probes) {
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
      if (afterWrite) {
        const res = await fetch(`${url}/api/v1/statuses`, {
          method: "POST",
          headers: { authorization: `Bearer ${seeded.token}`, "content-type": "application/json" },
          body: JSON.stringify({ status: "Between two reads", visibility: "private" }),
        });
        if (!res.ok) throw new Error(`the write between: ${res.status}`);
        await res.arrayBuffer();
      }
      await new Promise((r) => setTimeout(r, 500));
      const from = await log.offset();
      await request(1);
      await new Promise((r) => setTimeout(r, 500));
      const lines = (await log.since(from)).map((l) => l.slice(0, 200));
      process.stdout.write(`\n## ${probe.name}: ${lines.length} statements\n`);
      for (const l of lines) process.stdout.write(`  ${l}\n`);
    }
  } finally {
    await wren.stop();
  }
} finally {
  await db.drop();
  await rm(dataDir, { recursive: true, force: true });
}
