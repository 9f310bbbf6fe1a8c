// Migration 0057 (ADR 0080) on a database holding two statuses under one uri: the newest of them
// (the one findByUri answered) stays, the older go with their hashtag rows and notifications,
// and their author's counters follow; statuses of other uris are left alone.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { connectPostgres, type Sql } from "./connect.ts";
import { migrate } from "./migrate.ts";
import { migrateBefore } from "./testing/migrate-before.ts";
import { createTempDatabase, type TempDatabase } from "./testing/temp-database.ts";

const MIGRATION = "0057_statuses_uri_unique.sql";

describe("postgres statuses, one per uri (migration 0057)", () => {
  let database: TempDatabase;
  let sql: Sql;

  const insert = (id: number, uri: string) => sql`
    insert into statuses (id, account_id, uri, visibility, local, deleted, has_media, tags, data)
    values (${id}, 1, ${uri}, 'public', false, false, false, '{}',
            ${JSON.stringify({ id: String(id), uri, createdAt: `2026-01-0${id}T00:00:00.000Z` })}::text::jsonb)`;

  before(async () => {
    database = await createTempDatabase({ migrated: false });
    sql = connectPostgres({ url: database.url, poolMax: 1 });
    await migrateBefore(sql, MIGRATION);
    await insert(1, "https://r.example/notes/a");
    await insert(2, "https://r.example/notes/a");
    await insert(3, "https://r.example/notes/b");
    await insert(4, "https://r.example/notes/a");
    await sql`
      insert into status_tags (tag, status_id, account_id, local, has_media)
      values ('x', 1, 1, false, false), ('x', 4, 1, false, false)`;
    await sql`
      insert into notifications (id, account_id, type, from_account_id, status_id, data)
      values (50, 9, 'mention', 1, 2, '{}'), (51, 9, 'mention', 1, 4, '{}')`;
    assert.equal(await migrate(sql).then((names) => names[0]), MIGRATION);
  });
  after(async () => {
    await sql?.end();
    await database?.drop();
  });

  it("keeps the newest status of a uri, with its rows, and only those", async () => {
    const ids = await sql<{ id: string }[]>`select id::text from statuses order by id`;
    assert.deepEqual(
      ids.map((r) => r.id),
      ["3", "4"],
    );
    const tags = await sql<{ id: string }[]>`select status_id::text as id from status_tags`;
    assert.deepEqual(
      tags.map((r) => r.id),
      ["4"],
    );
    const notified = await sql<{ id: string }[]>`select id::text from notifications`;
    assert.deepEqual(
      notified.map((r) => r.id),
      ["51"],
    );
    const [counts] = await sql<{ statuses: number }[]>`
      select statuses::int from account_status_counts where account_id = 1`;
    assert.equal(counts?.statuses, 2);
  });

  it("refuses a second status under a uri from then on", async () => {
    await assert.rejects(insert(5, "https://r.example/notes/b"), /statuses_uri/);
  });
});
