// The database's limit for the status-creation scenario: how many statuses PostgreSQL makes
// durable per second when nothing else is asked of it — one autocommitted INSERT per status (a
// copy of a real status row with a new id, so the same indexes, triggers and commit fsync run),
// from `concurrency` clients at once over a pool of Wren's default size. Wren's create rate is
// compared with this the way the json-file run compares with its raw crash-safe file writes.

import postgres from "postgres";

export async function rawPostgresWriteRate(
  url: string,
  options: { seconds: number; concurrency: number; poolMax?: number },
): Promise<number> {
  const sql = postgres(url, { max: options.poolMax ?? 10, onnotice: () => {} });
  try {
    const [template] = await sql<{ id: string }[]>`select id from statuses order by id limit 1`;
    if (!template) throw new Error("seed the database first: the raw loop copies a status");
    const [{ base } = { base: "0" }] = await sql<{ base: string }[]>`
      select max(id) + 1000000 as base from statuses`;
    let next = BigInt(base);
    let done = 0;
    const deadline = performance.now() + options.seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (performance.now() < deadline) {
          const id = (next++).toString();
          await sql`
            insert into statuses (id, account_id, uri, visibility, local, deleted, has_media,
              in_reply_to_id, in_reply_to_account_id, reblog_of_id, tags, data)
            select ${id}::int8, account_id, uri || '/' || ${id}, visibility, local, deleted,
              has_media, in_reply_to_id, in_reply_to_account_id, reblog_of_id, tags,
              jsonb_set(data, '{id}', to_jsonb(${id}::text))
            from statuses where id = ${template.id}::int8`;
          done++;
        }
      }),
    );
    return done / ((performance.now() - started) / 1000);
  } finally {
    await sql.end();
  }
}
