// The change signals (changes.ts) that name what a status's and an account's counters and the
// lists of statuses are read from (migration 0039, ADR 0042), and this process's own writes told
// to them as they resolve: the memos kept of those answers (counter-memos.ts,
// status-list-memo.ts) forget the rows at once here, and on the notification in other processes.

import type { Status } from "../../domain/status.ts";
import type { Changes } from "./changes.ts";

/** The edge counts of one kind and side, named by their id ("edge_counts/<kind>/<side>"). */
export const edgeCountSignal = (kind: string, side: "from" | "to") => `edge_counts/${kind}/${side}`;

/** Counters of statuses by status id (status_counts). */
export const STATUS_COUNTS = "status_counts";
/** Statuses and the newest one's id by author (account_status_counts). */
export const ACCOUNT_STATUS_COUNTS = "account_status_counts";
/** Authors whose statuses a statement wrote: their lists, and their newest status. */
export const STATUS_ACCOUNTS = "status_accounts";
/** Hashtags whose timelines a statement wrote (status_tags, migration 0041): their pages. */
export const STATUS_TAGS = "status_tags";
/** A write to a row that is or was in the public timelines (names no rows). */
export const PUBLIC_TIMELINE = "public_timeline";
/** The edge_counts table as a whole (a truncation; the signals above name their rows). */
export const EDGE_COUNTS = "edge_counts";

/** What of a status a write of it touches beyond its own row. */
type Counted = Pick<Status, "accountId" | "inReplyToId" | "reblogOfId">;

/** Whether a status is in the public timelines (the generated column of migration 0002). */
export const inPublicTimeline = (s: Status) =>
  s.visibility === "public" &&
  s.reblogOfId === null &&
  !s.deleted &&
  (s.inReplyToId === null || s.inReplyToAccountId === s.accountId);

/**
 * This process's write of statuses `written` (or their deletion), as it resolves; `publicTouched`:
 * whether one of them is or was in the public timelines (or might have been).
 */
export function statusesCounted(
  changes: Changes,
  written: readonly Counted[],
  publicTouched: boolean,
): void {
  const parents = written.flatMap((s) => [s.inReplyToId, s.reblogOfId]);
  changes.rows(
    STATUS_COUNTS,
    parents.filter((id): id is string => id !== null),
  );
  const authors = [...new Set(written.map((s) => s.accountId))];
  changes.rows(ACCOUNT_STATUS_COUNTS, authors);
  changes.rows(STATUS_ACCOUNTS, authors);
  if (publicTouched) changes.bumpTable(PUBLIC_TIMELINE);
}

/** This process's write of an edge of `kind` between `accountId` and `targetId`. */
export function edgeCounted(
  changes: Changes,
  kind: string,
  accountId: string,
  targetId: string,
): void {
  changes.rows(edgeCountSignal(kind, "from"), [accountId]);
  changes.rows(edgeCountSignal(kind, "to"), [targetId]);
}
