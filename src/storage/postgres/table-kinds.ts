// The kind of record (Storage.versionOf, ADR 0072) of each table and change signal (changes.ts):
// this process's writes name them as they resolve, and the other processes' notifications carry
// them. Edges name their kind in each pair ("kind account target"), and their counts in the
// signal ("edge_counts/kind/side"). A table or signal not named here, or an edge write that
// names no pair, counts for every kind: exact first, kept across it once it is named here.

import { ALL_KINDS, kindOfEdge, type VersionKind } from "../version-kinds.ts";
import {
  ACCOUNT_STATUS_COUNTS,
  EDGE_COUNTS,
  PUBLIC_TIMELINE,
  STATUS_ACCOUNTS,
  STATUS_COUNTS,
  STATUS_TAGS,
} from "./count-signals.ts";

const TABLE_KINDS: Readonly<Record<string, VersionKind>> = {
  statuses: "statuses",
  status_edits: "statuses",
  polls: "statuses",
  conversations: "statuses",
  reblogs: "statuses",
  [STATUS_COUNTS]: "statuses",
  [ACCOUNT_STATUS_COUNTS]: "statuses",
  [STATUS_ACCOUNTS]: "statuses",
  [STATUS_TAGS]: "statuses",
  [PUBLIC_TIMELINE]: "statuses",
  accounts: "accounts",
  users: "accounts",
  oauth_apps: "accounts",
  custom_emojis: "accounts",
  media_attachments: "media",
  lists: "relations",
  filters: "relations",
  collections: "relations",
  // The store's own writes (kv-store.ts, kv-memo.ts) and the signalling keys' triggers.
  kv: "kv",
  kv_rows: "kv",
  kv_writes: "kv",
  access_tokens: "tokens",
  authorization_codes: "tokens",
  markers: "other",
  notifications: "other",
  announcements: "other",
  announcement_reactions: "other",
  reports: "other",
  scheduled_statuses: "other",
  push_subscriptions: "other",
  idempotency_keys: "other",
};

const EDGE_COUNTS_PREFIX = `${EDGE_COUNTS}/`;

/** The kinds a change of `table` (of the rows `ids`, when named) counts for. */
export function kindsOfChange(
  table: string,
  ids?: readonly string[],
): VersionKind | readonly VersionKind[] {
  if (Object.hasOwn(TABLE_KINDS, table)) return TABLE_KINDS[table] as VersionKind;
  if (table === "edges" && ids !== undefined && ids.length > 0) {
    const kinds: VersionKind[] = [];
    for (const name of ids) {
      const kind = kindOfEdge(name.slice(0, name.indexOf(" ")));
      if (kind === undefined) return ALL_KINDS;
      kinds.push(kind);
    }
    return kinds;
  }
  if (table.startsWith(EDGE_COUNTS_PREFIX)) {
    const edgeKind = table.slice(EDGE_COUNTS_PREFIX.length, table.lastIndexOf("/"));
    return kindOfEdge(edgeKind) ?? ALL_KINDS;
  }
  return ALL_KINDS;
}
