// The accounts' counters kept in this process (statuses, newest status time, followers,
// following: JoinedReads.accountCounts), forgotten row by row as the counter tables' change
// signals name them (row-memo.ts, count-signals.ts, migration 0039, ADR 0042). One memo shared
// by the joined reads, which load it, and the status store, whose put answers its author's
// counters as they stand after it (migration 0048) and keeps them here: the answer to a post
// shows them, and would otherwise read them again at once (ADR 0043 amended).

import type { AccountCounts } from "../ports.ts";
import type { Changes } from "./changes.ts";
import {
  ACCOUNT_STATUS_COUNTS,
  EDGE_COUNTS,
  edgeCountSignal,
  STATUS_ACCOUNTS,
} from "./count-signals.ts";
import { EDGE_KINDS } from "./edge-store.ts";
import { createRowMemo } from "./row-memo.ts";

export type AccountCountsMemo = ReturnType<typeof createAccountCountsMemo>;

export function createAccountCountsMemo(changes: Changes) {
  // An account's are its account_status_counts row, the creation time of the newest status it
  // names (the author's status writes: STATUS_ACCOUNTS), and its follows' edge counts.
  return createRowMemo<AccountCounts>(
    changes,
    [
      ACCOUNT_STATUS_COUNTS,
      STATUS_ACCOUNTS,
      EDGE_COUNTS,
      edgeCountSignal(EDGE_KINDS.follows, "to"),
      edgeCountSignal(EDGE_KINDS.follows, "from"),
    ],
    // Only the status store writes statuses, and it names every author a write changed as the
    // write resolves (count-signals.ts statusesCounted; a moved status's former author too): the
    // put's own signal heard back would only drop the counters it just kept.
    { namedAtOnce: [ACCOUNT_STATUS_COUNTS, STATUS_ACCOUNTS] },
  );
}
