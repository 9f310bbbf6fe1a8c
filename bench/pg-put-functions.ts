// `node bench/pg-put-functions.ts [puts]`: the database's side of a status put alone. Calls
// wren_put_status `puts` times (default 3,000) on one connection of a fresh migrated database
// with track_functions = 'all', and prints the backend's CPU per put (from /proc) and the time
// per call in the put's function and each trigger function it fires (pg_stat_user_functions).
// `--together N`: the puts asked N at a time through the status store's gathered puts
// (status-puts.ts: the first alone, the others in one wren_put_statuses statement), as under
// concurrent posts.

import { makeStatus } from "../src/storage/contract/fixtures.ts";
import { connectPostgres } from "../src/storage/postgres/connect.ts";
import { createStatusPuts } from "../src/storage/postgres/status-puts.ts";
import { benchDatabase } from "./lib/pg-database.ts";
import { cpuMilliseconds } from "./lib/processes.ts";

const togetherAt = process.argv.indexOf("--together");
const together = togetherAt === -1 ? 1 : Number(process.argv[togetherAt + 1]);
const puts = Number(
  process.argv.slice(2).find((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--together") ??
    3000,
);
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
  if (together === 1) {
    for (let id = 201; id < 201 + puts; id++) await put(id);
  } else {
    const putStatus = createStatusPuts(sql);
    const text = "hello world ".repeat(10);
    for (let id = 201; id < 201 + puts; id += together) {
      const ids = Array.from({ length: Math.min(together, 201 + puts - id) }, (_, i) => id + i);
      await Promise.all(
        ids.map((n) =>
          putStatus({
            status: makeStatus({ id: String(n), accountId: "1", text, tags: [] }),
            tags: [],
            listedTags: [],
            hasMedia: false,
            job: undefined,
            fresh: false,
          }),
        ),
      );
    }
  }
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
