// `node bench/postgres-scale.ts [--statuses N] [--reuse] [--name DB]`: PostgreSQL at scale (issue 16: "10M
// statuses without start-up time or memory growing with them"; "check the plans with EXPLAIN").
// Seeds a database through the services, measures `wren serve`'s start-up and memory on it,
// grows it to N statuses in SQL (bench/lib/pg-bulk-seed.ts), then takes every list query's plan
// and measures start-up and memory again. --reuse keeps an already grown database (the seeding
// takes minutes); the database is left in place for EXPLAINs by hand (`wren_bench_scale`).

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { connectPostgres } from "../src/storage/postgres/connect.ts";
import { freePort } from "../test/helpers/server.ts";
import { type BulkCounts, bulkSeed } from "./lib/pg-bulk-seed.ts";
import { benchDatabase, postgresEnv } from "./lib/pg-database.ts";
import { explainStoreQueries } from "./lib/pg-plans.ts";
import { residentMegabytes, startWrenServer } from "./lib/processes.ts";
import { benchEnv, type Seeded, seed } from "./lib/seed.ts";
import { median } from "./lib/stats.ts";

const { values } = parseArgs({
  options: {
    statuses: { type: "string", default: "10000000" },
    name: { type: "string", default: "wren_bench_scale" },
    reuse: { type: "boolean" },
    // With --reuse: add this many notifications and favourites, then vacuum (what a full run
    // adds after the statuses; for a database whose growing was cut short).
    extras: { type: "string" },
  },
});
const target = Number(values.statuses);
const NAME = values.name;
const seededFile = join(tmpdir(), `${NAME}.json`);
const started = performance.now();
const log = (m: string) =>
  process.stderr.write(
    `${((performance.now() - started) / 1000).toFixed(0).padStart(5)} s  ${m}\n`,
  );

interface ServeFigures {
  statuses: number;
  startupSeconds: number;
  residentMb: number;
  /** Median ms of sequential signed-in requests, per read. */
  reads: Record<string, number>;
}

async function grow(url: string, seeded: Seeded, counts: BulkCounts): Promise<void> {
  const sql = connectPostgres({ url, poolMax: 1 });
  try {
    await bulkSeed(sql, seeded, counts, log);
  } finally {
    await sql.end();
  }
}

async function serve(url: string, seeded: Seeded): Promise<ServeFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), "wren-bench-scale-"));
  const env = { ...benchEnv(dataDir, await freePort()), ...postgresEnv(url) };
  const sql = connectPostgres({ url, poolMax: 1 });
  const [{ n } = { n: 0 }] = await sql<{ n: number }[]>`select count(*)::int as n from statuses`;
  await sql.end();
  const t0 = performance.now();
  const wren = await startWrenServer(env);
  const startupSeconds = (performance.now() - t0) / 1000;
  const residentMb = await residentMegabytes(wren.process.pid as number);
  const headers = { authorization: `Bearer ${seeded.token}` };
  const paths: Record<string, string> = {
    "public timeline": "/api/v1/timelines/public?limit=20",
    "home timeline": "/api/v1/timelines/home?limit=20",
    "a status": `/api/v1/statuses/${seeded.statusId}`,
    "account statuses": `/api/v1/accounts/${seeded.authorIds[0]}/statuses?limit=20`,
    instance: "/api/v1/instance",
  };
  const reads: Record<string, number> = {};
  try {
    for (const [name, path] of Object.entries(paths)) {
      const times: number[] = [];
      for (let i = 0; i < 11; i++) {
        const t = performance.now();
        const res = await fetch(`${env.WREN_PUBLIC_URL}${path}`, { headers });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${path}: ${res.status}`);
        times.push(performance.now() - t);
      }
      reads[name] = median(times);
    }
    return { statuses: n, startupSeconds, residentMb, reads };
  } finally {
    await wren.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const db = await benchDatabase(NAME, { reuse: values.reuse ?? false });
let seeded: Seeded;
let small: ServeFigures | undefined;
if (db.existed) {
  seeded = JSON.parse(await readFile(seededFile, "utf8")) as Seeded;
  log(`reusing ${NAME}`);
  if (values.extras !== undefined) {
    const n = Number(values.extras);
    await grow(db.url, seeded, { statuses: 0, notifications: n, favourites: n });
  }
} else {
  log("seeding through the services…");
  const seedDir = await mkdtemp(join(tmpdir(), "wren-bench-scale-"));
  seeded = await seed(
    { ...benchEnv(seedDir, await freePort()), ...postgresEnv(db.url) },
    { statuses: 1_000, authors: 100 },
  ).finally(() => rm(seedDir, { recursive: true, force: true }));
  await writeFile(seededFile, JSON.stringify(seeded));
  log("serving the small database…");
  small = await serve(db.url, seeded);
  log(`growing to ${target.toLocaleString("en")} statuses…`);
  await grow(db.url, seeded, {
    statuses: target,
    notifications: target / 5,
    favourites: target / 5,
  });
}

const sql = connectPostgres({ url: db.url, poolMax: 1 });
const [mid] = await sql<{ id: string }[]>`
  select id from statuses order by id offset (select count(*) / 2 from statuses) limit 1`;
const [midNotification] = await sql<{ id: string }[]>`
  select id from notifications where account_id = ${seeded.viewerId}::int8 order by id
  offset (select count(*) / 2 from notifications where account_id = ${seeded.viewerId}::int8)
  limit 1`;
const [size] = await sql<{ size: string }[]>`
  select pg_size_pretty(pg_database_size(current_database())) as size`;
await sql.end();
log("plans…");
const plans = await explainStoreQueries(db.url, {
  viewerId: seeded.viewerId,
  followedIds: seeded.authorIds.slice(0, 50),
  authorId: seeded.authorIds[0] as string,
  statusId: seeded.statusId,
  middleId: mid?.id ?? seeded.statusId,
  middleNotificationId: midNotification?.id ?? "1",
});
log("serving the grown database…");
const large = await serve(db.url, seeded);

const out = { database: size?.size, small, large, plans };
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
process.stdout.write("\n| query | plan | ms | rows |\n| --- | --- | --- | --- |\n");
for (const p of plans) {
  process.stdout.write(`| ${p.name} | ${p.plan} | ${p.ms.toFixed(2)} | ${p.rows} |\n`);
}
