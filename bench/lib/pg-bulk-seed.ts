// Grows a seeded PostgreSQL bench database to millions of rows in SQL (INSERT … SELECT over
// generate_series), which takes minutes where cloning through the stores would take hours. Every
// row is a copy of a record the services made (bench/lib/seed.ts), with its id, author and the
// columns the lists filter on varied, so the indexes hold a realistic mix: a tenth unlisted, a
// tenth private, replies, reblogs, deleted statuses, local and remote ones, many hashtags.

import type { Sql } from "../../src/storage/postgres/connect.ts";

/** Rows per INSERT: one statement's work, short enough to report progress. */
const CHUNK = 250_000;

export interface BulkCounts {
  statuses: number;
  notifications: number;
  favourites: number;
}

async function authorIds(sql: Sql): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    select id from accounts where data->>'username' like 'author%' order by id`;
  if (rows.length === 0) throw new Error("seed the database first (bench/lib/seed.ts)");
  return rows.map((r) => r.id);
}

/** Adds `count` statuses (and their hashtag rows) copied from `templateId`'s record. */
async function addStatuses(
  sql: Sql,
  templateId: string,
  authors: readonly string[],
  count: number,
  progress: (done: number) => void,
): Promise<void> {
  for (let done = 0; done < count; done += CHUNK) {
    const n = Math.min(CHUNK, count - done);
    await sql.begin(async (tx) => {
      const [{ base } = { base: "0" }] = await tx<{ base: string }[]>`
        select max(id) + 1 as base from statuses`;
      await tx`
        insert into statuses (id, account_id, uri, visibility, local, deleted, has_media,
          in_reply_to_id, in_reply_to_account_id, reblog_of_id, tags, data)
        select v.id, v.account_id, v.uri, v.visibility, v.local, v.deleted, false,
          v.in_reply_to_id, v.in_reply_to_account_id, v.reblog_of_id, v.tags,
          t.data || jsonb_build_object('id', v.id::text, 'accountId', v.account_id::text,
            'uri', v.uri, 'visibility', v.visibility, 'local', v.local, 'deleted', v.deleted,
            'inReplyToId', v.in_reply_to_id::text,
            'inReplyToAccountId', v.in_reply_to_account_id::text,
            'reblogOfId', v.reblog_of_id::text, 'conversationId', v.id::text,
            'tags', to_jsonb(v.tags))
        from (select data from statuses where id = ${templateId}::int8) t,
        lateral (
          select ${base}::int8 + g as id,
            (${authors as string[]}::int8[])[1 + g % ${authors.length}] as account_id,
            'https://bench.invalid/statuses/' || (${base}::int8 + g) as uri,
            case g % 10 when 0 then 'unlisted' when 1 then 'private' else 'public' end
              as visibility,
            g % 4 <> 0 as local,
            g % 100 = 99 as deleted,
            case when g % 20 = 5 then ${base}::int8 + g - 1 end as in_reply_to_id,
            case when g % 20 = 5
              then (${authors as string[]}::int8[])[1 + (g - 1) % ${authors.length}] end
              as in_reply_to_account_id,
            case when g % 50 = 7 then ${base}::int8 + g - 7 end as reblog_of_id,
            array['tag' || (g % 1000)] || case when g % 10 = 3 then array['wren'] else '{}' end
              as tags
          from generate_series(0, ${n - 1}) g
        ) v`;
      // Hashtag rows for public originals, as the store's put writes them.
      await tx`
        insert into status_tags (tag, status_id, account_id, local, has_media)
        select tag, id, account_id, local, has_media
        from statuses, unnest(tags) as tag
        where id >= ${base}::int8 and visibility = 'public' and reblog_of_id is null
          and not deleted`;
    });
    progress(done + n);
  }
}

/** Adds `count` notifications: a tenth to the viewer, the rest spread over the authors. */
async function addNotifications(
  sql: Sql,
  viewerId: string,
  authors: readonly string[],
  count: number,
): Promise<void> {
  for (let done = 0; done < count; done += CHUNK) {
    const n = Math.min(CHUNK, count - done);
    await sql`
      insert into notifications (id, account_id, type, from_account_id, status_id, data)
      select v.id, v.account_id, v.type, v.from_id, v.status_id,
        jsonb_build_object('id', v.id::text, 'accountId', v.account_id::text, 'type', v.type,
          'fromAccountId', v.from_id::text, 'statusId', v.status_id::text,
          'groupKey', 'ungrouped-' || v.id, 'createdAt', '2026-01-01T00:00:00.000Z')
      from (select coalesce(max(id), 0) + 1 as base from notifications) b,
      lateral (
        select b.base + g as id,
          case when g % 10 = 0 then ${viewerId}::int8
            else (${authors as string[]}::int8[])[1 + g % ${authors.length}] end as account_id,
          (array['favourite', 'reblog', 'mention', 'follow'])[1 + g % 4] as type,
          (${authors as string[]}::int8[])[1 + (g / 7) % ${authors.length}] as from_id,
          (select min(id) from statuses) + g % 1000 as status_id
        from generate_series(0, ${n - 1}) g
      ) v`;
  }
}

/** Adds `count` favourites: each author favourites a run of distinct statuses. */
async function addFavourites(sql: Sql, authors: readonly string[], count: number): Promise<void> {
  for (let done = 0; done < count; done += CHUNK) {
    const n = Math.min(CHUNK, count - done);
    await sql`
      insert into edges (kind, account_id, target_id, id, data)
      select 'favourites', v.account_id, v.target_id, v.id,
        jsonb_build_object('id', v.id::text, 'accountId', v.account_id,
          'targetId', v.target_id, 'createdAt', '2026-01-01T00:00:00.000Z')
      from (select coalesce(max(id), 0) + 1 as base,
              (select min(id) from statuses) as first_status
            from edges where kind = 'favourites') b,
      lateral (
        select b.base + g as id,
          (${authors as string[]}::int8[])[1 + g % ${authors.length}]::text as account_id,
          (b.first_status + ${done} + g)::text as target_id
        from generate_series(0, ${n - 1}) g
      ) v
      on conflict do nothing`;
  }
}

export async function bulkSeed(
  sql: Sql,
  seeded: { viewerId: string; statusId: string },
  counts: BulkCounts,
  log: (message: string) => void,
): Promise<void> {
  const authors = await authorIds(sql);
  // The bench's database only: losing the last commits to a crash is harmless and halves the time.
  await sql`set synchronous_commit = off`;
  await addStatuses(sql, seeded.statusId, authors, counts.statuses, (done) =>
    log(`  ${done.toLocaleString("en")} statuses`),
  );
  log(`  ${counts.notifications.toLocaleString("en")} notifications…`);
  await addNotifications(sql, seeded.viewerId, authors, counts.notifications);
  log(`  ${counts.favourites.toLocaleString("en")} favourites…`);
  await addFavourites(sql, authors, counts.favourites);
  // As autovacuum would have by then: the visibility map lets index-only scans skip the heap.
  log("  vacuum analyze…");
  await sql`vacuum analyze`;
}
