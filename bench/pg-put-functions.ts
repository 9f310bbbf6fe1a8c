// `node bench/pg-put-functions.ts [puts]`: the database's side of a status put alone. Calls
// wren_put_status `puts` times (default 3,000) on one connection of a fresh migrated database
// with track_functions = 'all', and prints the backend's CPU per put (from /proc) and the time
// per call in the put's function and each trigger function it fires (pg_stat_user_functions).

import { connectPostgres } from "../src/storage/postgres/connect.ts";
import { benchDatabase } from "./lib/pg-database.ts";
import { cpuMilliseconds } from "./lib/processes.ts";

const puts = Number(process.argv[2] ?? 3000);
const db = await benchDatabase(`wren_bench_put_${process.pid}`);
const name = new URL(db.url).pathname.slice(1);
const admin = connectPostgres({ url: db.url, poolMax: 1 });
await admin.unsafe(`alter database ${name} set track_functions = 'all'`);
await admin.end();
const sql = connectPostgres({ url: db.url, poolMax: 1 });
try {
  const record = (id: number) => ({
    id: String(id),
    accountId: "1",
    text: "hello world ".repeat(10),
    contentHtml: "<p>hello world</p>".repeat(5),
    createdAt: new Date().toISOString(),
    visibility: "public",
    tags: [],
  });
  const put = (id: number) => sql`
    select * from wren_put_status(${id}::int8, 1::int8, ${`https://x.example/${id}`}, 'public',
      true, false, false, null::int8, null::int8, null::int8, '{}'::text[],
      ${sql.json(record(id))}::jsonb, '{}'::text[])`;
  for (let id = 1; id <= 200; id++) await put(id); // warm-up
  const [backend] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const pid = backend?.pid as number;
  // The warm-up's counts sent (a backend sends its counts at most once a second), then zeroed.
  await sql`select pg_stat_force_next_flush()`;
  await sql`select 1`;
  await sql`select pg_stat_reset()`;
  const cpuBefore = await cpuMilliseconds(pid);
  const started = performance.now();
  for (let id = 201; id < 201 + puts; id++) await put(id);
  const elapsed = performance.now() - started;
  const cpu = (await cpuMilliseconds(pid)) - cpuBefore;
  await sql`select pg_stat_force_next_flush()`;
  await sql`select 1`;
  const rows = await sql<{ funcname: string; calls: string; total: number; self: number }[]>`
    select funcname, calls, total_time as total, self_time as self
    from pg_stat_user_functions order by total_time desc`;
  console.log(
    `${puts} puts: ${(elapsed / puts).toFixed(3)} ms each, backend CPU ${(cpu / puts).toFixed(3)} ms each`,
  );
  console.log("| function | calls per put | total ms per put | self ms per put |");
  for (const r of rows) {
    const calls = Number(r.calls);
    console.log(
      `| ${r.funcname} | ${(calls / puts).toFixed(2)} | ${(r.total / puts).toFixed(3)} | ${(r.self / puts).toFixed(3)} |`,
    );
  }
} finally {
  await sql.end();
  await db.drop();
}
