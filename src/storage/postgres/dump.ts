// Storage.dump for PostgreSQL: each kind's rows in dump order. Tables keyed by a bigint are read
// in that order with a cursor (so a table of millions never sits in memory); the few kinds keyed
// by text (hashes, job names, key–value paths) are small and sorted here, as json-file sorts them.

import {
  compareDumpKeys,
  type DumpedRecord,
  dumpKey,
  RECORD_KINDS,
  type RecordKind,
} from "../../domain/record-dump.ts";
import type { Sql } from "./connect.ts";

type Source =
  /** `data` of a table, by a bigint column that orders like the dump key. */
  | { table: string; orderBy: string; edgeKind?: string }
  /** Read whole and sorted in memory. */
  | { table: string; inMemory: true };

const SOURCES: Record<RecordKind, Source> = {
  accounts: { table: "accounts", orderBy: "id" },
  users: { table: "users", orderBy: "account_id" },
  apps: { table: "oauth_apps", orderBy: "id" },
  tokens: { table: "access_tokens", orderBy: "id" },
  authorizationCodes: { table: "authorization_codes", inMemory: true },
  statuses: { table: "statuses", orderBy: "id" },
  statusEdits: { table: "status_edits", orderBy: "id" },
  polls: { table: "polls", orderBy: "id" },
  pollVotes: { table: "edges", orderBy: "id", edgeKind: "poll-votes" },
  media: { table: "media_attachments", orderBy: "id" },
  scheduledStatuses: { table: "scheduled_statuses", orderBy: "id" },
  follows: { table: "edges", orderBy: "id", edgeKind: "follows" },
  followRequests: { table: "edges", orderBy: "id", edgeKind: "follow-requests" },
  blocks: { table: "edges", orderBy: "id", edgeKind: "blocks" },
  mutes: { table: "edges", orderBy: "id", edgeKind: "mutes" },
  favourites: { table: "edges", orderBy: "id", edgeKind: "favourites" },
  bookmarks: { table: "edges", orderBy: "id", edgeKind: "bookmarks" },
  pins: { table: "edges", orderBy: "id", edgeKind: "pins" },
  conversationMutes: { table: "edges", orderBy: "id", edgeKind: "conversation-mutes" },
  tagFollows: { table: "edges", orderBy: "id", edgeKind: "tag-follows" },
  featuredTags: { table: "edges", orderBy: "id", edgeKind: "featured-tags" },
  accountNotes: { table: "edges", orderBy: "id", edgeKind: "account-notes" },
  accountDomainBlocks: { table: "edges", orderBy: "id", edgeKind: "account-domain-blocks" },
  notificationPermissions: { table: "edges", orderBy: "id", edgeKind: "notification-permissions" },
  endorsements: { table: "edges", orderBy: "id", edgeKind: "endorsements" },
  suggestionDismissals: { table: "edges", orderBy: "id", edgeKind: "suggestion-dismissals" },
  quotes: { table: "edges", orderBy: "id", edgeKind: "quotes" },
  notifications: { table: "notifications", orderBy: "id" },
  conversations: { table: "conversations", orderBy: "id" },
  markers: { table: "markers", inMemory: true },
  pushSubscriptions: { table: "push_subscriptions", orderBy: "token_id" },
  lists: { table: "lists", orderBy: "id" },
  listMembers: { table: "edges", orderBy: "id", edgeKind: "list-members" },
  collections: { table: "collections", orderBy: "id" },
  filters: { table: "filters", orderBy: "id" },
  announcements: { table: "announcements", orderBy: "id" },
  announcementDismissals: { table: "edges", orderBy: "id", edgeKind: "announcement-dismissals" },
  announcementReactions: { table: "announcement_reactions", orderBy: "id" },
  customEmojis: { table: "custom_emojis", orderBy: "id" },
  reports: { table: "reports", orderBy: "id" },
  idempotency: { table: "idempotency_keys", inMemory: true },
  jobs: { table: "jobs", inMemory: true },
  kv: { table: "kv", inMemory: true },
};

/** Rows fetched per round trip while streaming a large table. */
const BATCH = 1000;

interface KvRow {
  key: string[];
  value: unknown;
  expires_at: Date | null;
}

/** The job records, each with its shared part put back (job-shares.ts, ADR 0067). */
async function wholeJobs(sql: Sql): Promise<object[]> {
  const rows = await sql<{ data: object }[]>`
    select case when s.data is null then j.data
      else jsonb_set(j.data::jsonb, '{payload,shared}', s.data::jsonb)::json end as data
    from jobs j left join job_shares s on s.key = j.share`;
  return rows.map((row) => row.data);
}

async function recordsInMemory(sql: Sql, kind: RecordKind, table: string): Promise<object[]> {
  const records =
    kind === "kv"
      ? (await sql<KvRow[]>`select key, value, expires_at from kv`).map((row) => ({
          key: row.key,
          value: row.value,
          expiresAt: row.expires_at === null ? null : row.expires_at.toISOString(),
        }))
      : kind === "jobs"
        ? await wholeJobs(sql)
        : (await sql<{ data: object }[]>`select data from ${sql(table)}`).map((row) => row.data);
  const keyed = records.map((record) => ({ key: dumpKey(kind, record), record }));
  keyed.sort((a, b) => compareDumpKeys(a.key, b.key));
  return keyed.map((k) => k.record);
}

export async function* dumpDatabase(sql: Sql): AsyncGenerator<DumpedRecord> {
  for (const kind of RECORD_KINDS) {
    const source = SOURCES[kind];
    if ("inMemory" in source) {
      for (const record of await recordsInMemory(sql, kind, source.table)) yield { kind, record };
      continue;
    }
    const where = source.edgeKind === undefined ? sql`` : sql`where kind = ${source.edgeKind}`;
    const rows = sql<{ data: object }[]>`
      select data from ${sql(source.table)} ${where} order by ${sql(source.orderBy)}`;
    for await (const batch of rows.cursor(BATCH) as AsyncIterable<{ data: object }[]>) {
      for (const row of batch) yield { kind, record: row.data };
    }
  }
}
