// Statuses on PostgreSQL (migration 0002): one row per status, deleted ones kept; the columns
// the lists use beside the whole record. Every list is a range scan on a partial id index: an
// author's statuses on (account_id, id), the public timelines on the `public_timeline` rows,
// hashtag timelines on status_tags, replies and reblogs on their parent's id. A home timeline
// walks each author's index for at most one page and merges those (as json-file merges its
// per-author lists), so its cost grows with the page and the authors, not with the statuses.

import { createHash } from "node:crypto";
import type { Status, TimelineEntry } from "../../domain/status.ts";
import type { PublicFilter, StatusFilter, StatusStore } from "../ports.ts";
import { type AccountCountsMemo, createAccountCountsMemo } from "./account-counts-memo.ts";
import type { PgContext } from "./context.ts";
import { inPublicTimeline, STATUS_TAGS, statusesCounted } from "./count-signals.ts";
import { accountCountRows, statusCountRows } from "./counts.ts";
import { idWindow, newestFirst, openWindow, pageCanHold } from "./id-window.ts";
import { createReblogMemo } from "./reblog-memo.ts";
import { createRecordIdentities, type JsonRow } from "./record-identities.ts";
import { MISSING } from "./record-memo.ts";
import { createRowMemo } from "./row-memo.ts";
import { rowId, rowIds } from "./rows.ts";
import {
  authorSource,
  createStatusListMemo,
  PUBLIC_SOURCE,
  tagSource,
} from "./status-list-memo.ts";
import { createStatusPuts } from "./status-puts.ts";
import { statusRowsByUri } from "./status-rows-by-uri.ts";

interface DataRow {
  data: Status;
}

/** The columns a status is read from as text (record-identities.ts). */
type StatusRow = JsonRow;

/** What a status write touches: its row, its author's lists and counters, its parents'. */
type StatusParents = Pick<Status, "id" | "accountId" | "inReplyToId" | "reblogOfId">;

interface ParentsRow {
  id: string;
  account_id: string;
  in_reply_to_id: string | null;
  reblog_of_id: string | null;
  public_timeline: boolean;
}

interface EntryRow {
  id: string;
  account_id: string;
}

/** Lower-cased and distinct; U+0000, which no text column holds, replaced (see record-data.ts). */
const lowerTags = (tags: readonly string[]) => [
  ...new Set(tags.map((t) => t.toLowerCase().replaceAll("\u0000", "\uFFFD"))),
];

/** Whether a status shows in hashtag timelines (public originals, replies included). */
const inTagTimelines = (s: Status) =>
  !s.deleted && s.visibility === "public" && s.reblogOfId === null;

export function createStatusStore(
  db: PgContext,
  accountCounts: AccountCountsMemo = createAccountCountsMemo(db.changes),
): StatusStore {
  const { sql } = db;
  // Read statuses come back as the same objects while unchanged, as json-file's do, so what is
  // rendered from them is reused (record-identities.ts).
  const identities = createRecordIdentities<Status>();
  const asText = sql`id::text as key, data::text as json`;
  const record = (row: StatusRow) => identities.of(row);
  const records = (rows: readonly StatusRow[]) => rows.map(record);
  const byUri = statusRowsByUri(sql);
  // Statuses by id are kept in this process and forgotten row by row as they are written, here
  // or (once notified) by another process (row-memo.ts, ADR 0033): a page of a timeline or a
  // status read is answered without reading its rows, as on json-file.
  const memo = createRowMemo<Status>(db.changes, "statuses");
  const putStatus = createStatusPuts(sql);
  const loadMany = async (keys: string[]) => {
    const rows = await sql<StatusRow[]>`
      select ${asText} from statuses where id = any(${keys}::int8[])`;
    return new Map(rows.map((row) => [row.key, record(row)]));
  };
  // Pages of an author's statuses and of the home and public timelines, kept alike and forgotten
  // by author or as a whole public timeline (status-list-memo.ts, ADR 0042).
  const lists = createStatusListMemo(db.changes);
  /** A page's key: the list, and the page and filter asked for. */
  const pageKey = (list: string, ...asked: unknown[]) => `${list}|${JSON.stringify(asked)}`;
  /** A home page's list: its authors, hashed (a key of thousands of ids would outweigh it). */
  const authorsList = (keys: readonly string[]) =>
    `authors ${createHash("sha256").update(keys.join(",")).digest("base64")}`;
  /**
   * This process's write to `statuses`: forgotten at once with the counters and lists they are
   * in (the hashtag timelines of `tags`), and the version moves.
   */
  const written = (
    statuses: readonly StatusParents[],
    publicTouched: boolean,
    tags: readonly string[],
  ) => {
    db.changes.rows(
      "statuses",
      statuses.map((s) => s.id),
    );
    statusesCounted(db.changes, statuses, publicTouched);
    if (tags.length > 0) db.changes.rows(STATUS_TAGS, tags);
  };
  // The viewers' boosts by original, kept until a write touches them (reblog-memo.ts).
  const reblogs = createReblogMemo(db.changes);

  /** The conditions of a StatusFilter, each `and …` (json-file: status-filter.ts). */
  const filterSql = (filter: StatusFilter = {}) => {
    const tag = filter.tagged?.toLowerCase();
    return sql`
      ${filter.excludeReplies ? sql`and (in_reply_to_id is null or in_reply_to_account_id is not distinct from account_id)` : sql``}
      ${filter.excludeReblogs ? sql`and reblog_of_id is null` : sql``}
      ${filter.onlyMedia ? sql`and has_media` : sql``}
      ${tag === undefined ? sql`` : sql`and tags @> array[${tag}::text]`}
      ${filter.visibilities === undefined ? sql`` : sql`and visibility = any(${[...filter.visibilities]}::text[])`}`;
  };
  const origin = (column: string, filter: PublicFilter) =>
    filter.origin === "all" ? sql`` : sql`and ${sql(column)} = ${filter.origin === "local"}`;
  const entries = (rows: readonly EntryRow[]): TimelineEntry[] =>
    rows.map((r) => ({ account_id: r.account_id, status_id: r.id }));

  /**
   * A put (`fresh`: of a new status, unless its uri is taken); answers the row of the status
   * holding the uri when a fresh put found one, and then wrote nothing.
   */
  const write = async (status: Status, fresh: boolean): Promise<StatusRow | undefined> => {
    const tags = lowerTags(status.tags);
    const hasMedia = status.mediaIds.length > 0;
    const listedTags = inTagTimelines(status) ? tags : [];
    // One statement (migration 0037's function: the row, then its tag rows, in the order a
    // transaction ran them), with the job the write carries if any (an event's record,
    // outbox.ts): one round trip, where a transaction cost three; puts asked for while one is
    // under way go together in the next statement (status-puts.ts).
    // Whether the public timelines change, forgotten here at once: the record kept of the status
    // says whether it was in them (a deletion or edit reads it first). One not kept (a new
    // status, mostly) counts as not: were it in them, the trigger's signal, heard back, still
    // forgets them within the notification's trip, the memos' bound (ADR 0042).
    const before = memo.peek(status.id);
    const publicTouched =
      inPublicTimeline(status) ||
      (before !== undefined && before !== MISSING && inPublicTimeline(before));
    const carried = await db.outbox.take();
    // The author's counters as the put leaves them, kept unless a later version of them is
    // or another write changed them while it ran (watched from before it is sent: row-memo.ts).
    const counting = accountCounts.watchWrite(status.accountId);
    const statement = putStatus({ status, tags, listedTags, hasMedia, job: carried?.job, fresh });
    carried?.settle(statement);
    const answer = await statement.catch((error: unknown) => {
      counting.abandon();
      // It may have committed all the same (a connection lost with the answer): its author's
      // counters are forgotten, as its signal heard back no longer does (account-counts-memo.ts).
      statusesCounted(db.changes, [status], false);
      throw error;
    });
    if (answer.taken_key !== null && answer.taken_json !== null) {
      // Nothing written (the carried job aside): the status holding the uri answers.
      counting.abandon();
      return { key: answer.taken_key, json: answer.taken_json };
    }
    // The hashtag timelines it is in now and those it was in (the function answers them).
    // A status moved from another author changed that author's counters too.
    const former = answer.former_author;
    const tell = () =>
      written(former ? [status, { ...status, accountId: former }] : [status], publicTouched, [
        ...new Set([...listedTags, ...answer.untagged]),
      ]);
    const counts = {
      statuses: answer.author_statuses,
      lastStatusAt: answer.author_last_at,
      followers: answer.author_followers,
      following: answer.author_following,
    };
    counting.settle(counts, Number(answer.author_version), tell);
    if (status.reblogOfId !== null) reblogs.written(status.accountId, status.reblogOfId);
    return undefined;
  };

  return {
    async get(id) {
      const key = rowId(id);
      if (key === undefined) return undefined;
      return memo.get(key, async () => {
        const [row] = await sql<StatusRow[]>`
          select ${asText} from statuses where id = ${key}::int8`;
        return row && record(row);
      });
    },

    async getMany(ids) {
      const keys = rowIds(ids);
      if (keys.length === 0) return new Map();
      return memo.getMany(keys, loadMany);
    },

    async findByUri(uri) {
      const row = await byUri(uri);
      return row && record(row);
    },

    async put(status) {
      await write(status, false);
    },

    // ADR 0080: the unique index on statuses.uri settles racing ingests (migration 0057).
    async putNew(status) {
      const taken = await write(status, true);
      return taken && record(taken);
    },

    async listByAccount(accountId, page, filter) {
      const key = rowId(accountId);
      if (key === undefined || !pageCanHold(page)) return [];
      return lists.get(pageKey(`account ${key}`, page, filter), [authorSource(key)], async () => {
        // Built on a miss only: a kept page is answered without the window's SQL fragments.
        const window = openWindow(sql, page);
        const rows = await sql<StatusRow[]>`
          select ${asText} from statuses
          where account_id = ${key}::int8 and not deleted ${window.where}
            ${filterSql(filter)}
          order by id ${window.direction} limit ${window.limit}`;
        return records(newestFirst(rows, page));
      });
    },

    // Per-author and per-status counts come from account_status_counts and status_counts,
    // kept by a row trigger in each status write's transaction (migration 0013): a key lookup
    // where count(*) took milliseconds per author with tens of thousands of statuses.
    async countByAccount(accountId) {
      const key = rowId(accountId);
      if (key === undefined) return 0;
      const [row] = await sql<{ count: string }[]>`
        select statuses as count from account_status_counts where account_id = ${key}::int8`;
      return Number(row?.count ?? 0);
    },

    async accountFacts(accountIds) {
      const rows = await accountCountRows(sql, accountIds, false);
      const found = new Map(rows.map((r) => [r.account_id, r]));
      return new Map(
        accountIds.map((id) => {
          const row = found.get(id);
          return [id, { count: Number(row?.count ?? 0), lastStatusAt: row?.last_at ?? null }];
        }),
      );
    },

    async countLocal() {
      const [row] = await sql<{ count: number }[]>`
        select count(*)::int as count from statuses where local and not deleted`;
      return row?.count ?? 0;
    },

    async listEntriesByAccounts(accountIds, page) {
      const keys = rowIds(accountIds);
      if (keys.length === 0 || !pageCanHold(page)) return [];
      return lists.get(pageKey(authorsList(keys), page), keys.map(authorSource), async () => {
        const window = openWindow(sql, page);
        // Each author gives at most a page from its own index range; the page is cut from those.
        const rows = await sql<EntryRow[]>`
          select s.id, s.account_id
          from unnest(${keys}::int8[]) as a(id)
          cross join lateral (
            select id, account_id from statuses
            where account_id = a.id and not deleted ${window.where}
            order by id ${window.direction} limit ${window.limit}
          ) s
          order by s.id ${window.direction} limit ${window.limit}`;
        return entries(newestFirst(rows, page));
      });
    },

    async listPublicEntries(page, filter) {
      if (!pageCanHold(page)) return [];
      return lists.get(pageKey("public", page, filter), [PUBLIC_SOURCE], async () => {
        const window = openWindow(sql, page);
        const rows = await sql<EntryRow[]>`
          select id, account_id from statuses
          where public_timeline ${origin("local", filter)} ${window.where}
            ${filter.onlyMedia ? sql`and has_media` : sql``}
          order by id ${window.direction} limit ${window.limit}`;
        return entries(newestFirst(rows, page));
      });
    },

    async listTagEntries(tag, page, filter) {
      if (!pageCanHold(page)) return [];
      const lower = tag.toLowerCase();
      return lists.get(pageKey(`tag ${lower}`, page, filter), [tagSource(lower)], async () => {
        const window = openWindow(sql, page, "status_id");
        const rows = await sql<EntryRow[]>`
          select status_id as id, account_id from status_tags
          where tag = ${lower} ${origin("local", filter)}
            ${window.where}
            ${filter.onlyMedia ? sql`and has_media` : sql``}
          order by status_id ${window.direction} limit ${window.limit}`;
        return entries(newestFirst(rows, page));
      });
    },

    async listReplies(statusId) {
      const key = rowId(statusId);
      if (key === undefined) return [];
      const rows = await sql<StatusRow[]>`
        select ${asText} from statuses
        where in_reply_to_id = ${key}::int8 and not deleted order by id`;
      return records(rows);
    },

    async countReplies(statusId) {
      const key = rowId(statusId);
      if (key === undefined) return 0;
      const [row] = await sql<{ count: string }[]>`
        select replies as count from status_counts where status_id = ${key}::int8`;
      return Number(row?.count ?? 0);
    },

    async findReblog(accountId, statusId) {
      const account = rowId(accountId);
      const original = rowId(statusId);
      if (account === undefined || original === undefined) return undefined;
      const [row] = await sql<StatusRow[]>`
        select ${asText} from statuses
        where account_id = ${account}::int8 and reblog_of_id = ${original}::int8 and not deleted
        order by id desc limit 1`;
      return row && record(row);
    },

    async listReblogs(statusId, page) {
      const key = rowId(statusId);
      const window = idWindow(sql, page);
      if (key === undefined || window === undefined) return [];
      const rows = await sql<StatusRow[]>`
        select ${asText} from statuses
        where reblog_of_id = ${key}::int8 and not deleted ${window.where}
        order by id ${window.direction} limit ${window.limit}`;
      return records(newestFirst(rows, page));
    },

    async listDeleted(page) {
      const window = idWindow(sql, page);
      if (window === undefined) return [];
      const rows = await sql<DataRow[]>`
        select data from statuses
        where deleted and reblog_of_id is null ${window.where}
        order by id ${window.direction} limit ${window.limit}`;
      return newestFirst(rows, page).map((r) => r.data);
    },

    async listRemote(page) {
      const window = idWindow(sql, page);
      if (window === undefined) return [];
      // The statuses_remote index (migration 0008).
      const rows = await sql<DataRow[]>`
        select data from statuses
        where not local ${window.where}
        order by id ${window.direction} limit ${window.limit}`;
      return newestFirst(rows, page).map((r) => r.data);
    },

    async delete(id) {
      const key = rowId(id);
      if (key === undefined) return false;
      const deleting = sql.begin((tx) => [
        tx<{ tag: string }[]>`delete from status_tags where status_id = ${key}::int8 returning tag`,
        tx<ParentsRow[]>`
          delete from statuses where id = ${key}::int8
          returning id::text, account_id::text, in_reply_to_id::text, reblog_of_id::text,
            public_timeline`,
      ]);
      deleting.catch(() => {
        // Perhaps committed (a connection lost with the answer): its author's counters are
        // forgotten as in put, if the status is kept (account-counts-memo.ts).
        const kept = memo.peek(key);
        if (kept !== undefined && kept !== MISSING) statusesCounted(db.changes, [kept], false);
      });
      const [untagged, removed] = (await deleting) as unknown as [{ tag: string }[], ParentsRow[]];
      const row = removed?.[0];
      if (row === undefined) return false;
      written(
        [
          {
            id: row.id,
            accountId: row.account_id,
            inReplyToId: row.in_reply_to_id,
            reblogOfId: row.reblog_of_id,
          },
        ],
        row.public_timeline,
        (untagged ?? []).map((r) => r.tag),
      );
      if (row.reblog_of_id !== null) reblogs.written(row.account_id, row.reblog_of_id);
      return true;
    },

    async countReblogs(statusId) {
      const key = rowId(statusId);
      if (key === undefined) return 0;
      const [row] = await sql<{ count: string }[]>`
        select reblogs as count from status_counts where status_id = ${key}::int8`;
      return Number(row?.count ?? 0);
    },

    async interactionCounts(statusIds) {
      const rows = await statusCountRows(sql, statusIds, false);
      const found = new Map(rows.map((r) => [r.id, r]));
      return new Map(
        statusIds.map((id) => {
          const row = found.get(id);
          return [id, { replies: Number(row?.replies ?? 0), reblogs: Number(row?.reblogs ?? 0) }];
        }),
      );
    },

    async findReblogs(accountId, statusIds) {
      const account = rowId(accountId);
      const keys = rowIds(statusIds);
      if (account === undefined || keys.length === 0) return new Map();
      const boosts = await reblogs.find(account, keys, async (missing) => {
        const rows = await sql<{ original: string; id: string }[]>`
          select distinct on (reblog_of_id) reblog_of_id::text as original, id::text from statuses
          where account_id = ${account}::int8 and reblog_of_id = any(${missing}::int8[])
            and not deleted
          order by reblog_of_id, id desc`;
        return new Map(rows.map((r) => [r.original, r.id]));
      });
      if (boosts.size === 0) return new Map();
      // The boosts themselves from the row memo; each checked again, as the two memos hear of
      // a write one after the other.
      const found = await memo.getMany([...new Set(boosts.values())], loadMany);
      const result = new Map<string, Status>();
      for (const id of statusIds) {
        const boost = found.get(boosts.get(id) ?? "");
        if (boost && !boost.deleted && boost.accountId === account && boost.reblogOfId === id) {
          result.set(id, boost);
        }
      }
      return result;
    },
  };
}
