// The order and text of an instance export (`wren export`): one record per line, kinds in a fixed
// order, records of a kind by a key every backend can sort alike, written as canonical JSON (keys
// sorted) so that the same records give the same bytes whichever backend held them — PostgreSQL's
// jsonb, for one, does not keep the order of an object's keys.

import { compareIds, isId } from "./ids.ts";

/** Every kind of record a Storage holds, in the order an export lists them. */
export const RECORD_KINDS = [
  "accounts",
  "users",
  "apps",
  "tokens",
  "authorizationCodes",
  "statuses",
  "statusEdits",
  "polls",
  "pollVotes",
  "media",
  "scheduledStatuses",
  "follows",
  "followRequests",
  "blocks",
  "mutes",
  "favourites",
  "bookmarks",
  "pins",
  "conversationMutes",
  "tagFollows",
  "featuredTags",
  "accountNotes",
  "accountDomainBlocks",
  "notificationPermissions",
  "endorsements",
  "suggestionDismissals",
  "quotes",
  "notifications",
  "conversations",
  "markers",
  "pushSubscriptions",
  "lists",
  "listMembers",
  "collections",
  "filters",
  "announcements",
  "announcementDismissals",
  "announcementReactions",
  "customEmojis",
  "reports",
  "idempotency",
  "jobs",
  "kv",
] as const;

export type RecordKind = (typeof RECORD_KINDS)[number];

export interface DumpedRecord {
  kind: RecordKind;
  record: object;
}

/** The key a kind's records are listed by: their id where they have one. */
export function dumpKey(kind: RecordKind, record: object): string {
  const r = record as Record<string, unknown>;
  switch (kind) {
    case "users":
      return String(r.accountId);
    case "authorizationCodes":
      return String(r.codeHash);
    case "idempotency":
      return String(r.keyHash);
    case "markers":
      return `${String(r.accountId)}/${String(r.timeline)}`;
    case "pushSubscriptions":
      return String(r.tokenId);
    case "kv":
      return JSON.stringify(r.key);
    default:
      return String(r.id);
  }
}

/** Numeric ids in id order first, then any other key by its text. */
export function compareDumpKeys(a: string, b: string): number {
  const numericA = isId(a);
  const numericB = isId(b);
  if (numericA && numericB) return compareIds(a, b);
  if (numericA !== numericB) return numericA ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** JSON with every object's keys sorted (undefined values left out, as JSON does). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== "object" || Array.isArray(inner)) return inner;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) {
      sorted[key] = (inner as Record<string, unknown>)[key];
    }
    return sorted;
  });
}
