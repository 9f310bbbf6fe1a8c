// The fields of one status that the status indexes, the list filters and timeline entries need:
// what the status table (status-table.ts) keeps in memory per status, in columns, and what the
// snapshot holds per line. At a million statuses, keeping every full record in memory cost about
// 1.8 GB; bodies are read from their files on demand instead (status-records.ts). Objects of
// this type are made only for a write, a snapshot line or a test, never kept.

import type { Visibility } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";

export interface StatusSummary {
  readonly id: string;
  readonly accountId: string;
  /** ActivityPub id (findByUri). */
  readonly uri: string;
  readonly visibility: Visibility;
  readonly local: boolean;
  readonly deleted: boolean;
  /** Has media attachments (the only_media filters). */
  readonly hasMedia: boolean;
  readonly inReplyToId: string | null;
  readonly inReplyToAccountId: string | null;
  readonly reblogOfId: string | null;
  readonly tags: readonly string[];
}

export const NO_TAGS: readonly string[] = Object.freeze([]);

export function summarize(s: Status): StatusSummary {
  return {
    id: s.id,
    accountId: s.accountId,
    uri: s.uri,
    visibility: s.visibility,
    local: s.local,
    deleted: s.deleted,
    hasMedia: s.mediaIds.length > 0,
    inReplyToId: s.inReplyToId,
    inReplyToAccountId: s.inReplyToAccountId,
    reblogOfId: s.reblogOfId,
    tags: s.tags.length === 0 ? NO_TAGS : s.tags,
  };
}
