// The compact in-memory entry of one status: only the fields that the status indexes, the list
// filters and timeline entries need. At a million statuses, keeping every full record in memory
// cost about 1.8 GB; bodies are read from their files on demand instead (status-records.ts).

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

/**
 * Shares equal strings that repeat across many statuses (account ids, visibilities): a million
 * summaries would otherwise hold a million copies of a hundred author ids.
 */
export class StringPool {
  readonly #strings = new Map<string, string>();

  get<S extends string | null>(value: S): S {
    if (value === null) return value;
    const known = this.#strings.get(value);
    if (known !== undefined) return known as S;
    this.#strings.set(value, value);
    return value;
  }
}

export function summarize(s: Status, pool?: StringPool): StatusSummary {
  const shared = <S extends string | null>(v: S): S => (pool ? pool.get(v) : v);
  return Object.freeze({
    id: s.id,
    accountId: shared(s.accountId),
    uri: s.uri,
    visibility: shared(s.visibility),
    local: s.local,
    deleted: s.deleted,
    hasMedia: s.mediaIds.length > 0,
    inReplyToId: s.inReplyToId,
    inReplyToAccountId: shared(s.inReplyToAccountId),
    reblogOfId: s.reblogOfId,
    tags: s.tags.length === 0 ? NO_TAGS : Object.freeze(s.tags.map(shared)),
  });
}
