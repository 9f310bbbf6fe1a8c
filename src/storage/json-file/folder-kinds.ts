// The kind of record (Storage.versionOf, ADR 0072) of each folder of the data directory, whose
// changes a RecordCollection counts. A folder not named here counts for every kind: a new store
// is exact from its first write, and kept parts across its writes once it is named here.

import { ALL_KINDS, kindOfEdge, type VersionKind } from "../version-kinds.ts";

const FOLDER_KINDS: Readonly<Record<string, VersionKind>> = {
  statuses: "statuses",
  "status-edits": "statuses",
  polls: "statuses",
  conversations: "statuses",
  accounts: "accounts",
  users: "accounts",
  apps: "accounts",
  "custom-emojis": "accounts",
  "media-attachments": "media",
  lists: "relations",
  filters: "relations",
  collections: "relations",
  kv: "kv",
  tokens: "tokens",
  "authorization-codes": "tokens",
  markers: "other",
  notifications: "other",
  announcements: "other",
  "announcement-reactions": "other",
  reports: "other",
  "scheduled-statuses": "other",
  "push-subscriptions": "other",
  idempotency: "other",
};

/** The kinds a change of a record of `folder` counts for (edges' folders are their kinds). */
export function kindsOfFolder(folder: string): VersionKind | readonly VersionKind[] {
  if (Object.hasOwn(FOLDER_KINDS, folder)) return FOLDER_KINDS[folder] as VersionKind;
  return kindOfEdge(folder) ?? ALL_KINDS;
}
