// follows.countTo answered from the accounts' counters kept in this process (account-counts-memo.ts,
// ADR 0042; a status put keeps its author's, ADR 0043 amended) where they say the account has
// followers (ADR 0057). The inbox asks it of the sender of every Create ("does anyone here follow
// it?", federation/inbox/posts.ts) right after the previous post of that sender kept its
// counters, and each ask was a statement.
//
// The kept counters outlive a change of another process by no more than its notification's trip
// (this process's own writes forget them as they resolve): the bound of every memo. Only a
// positive answer is taken from them: a stale "yes" stores a post that came as its author's last
// follower here left (as it would have a moment earlier); a "no" drops a post for good, so it is
// always read.

import type { Edge } from "../../domain/relations.ts";
import type { EdgeStore } from "../ports.ts";
import type { AccountCountsMemo } from "./account-counts-memo.ts";
import { MISSING } from "./record-memo.ts";

export function withKeptFollowerCounts<E extends Edge>(
  follows: EdgeStore<E>,
  counts: AccountCountsMemo,
): EdgeStore<E> {
  return {
    ...follows,
    async countTo(targetId) {
      const kept = counts.peek(targetId);
      if (kept !== undefined && kept !== MISSING && kept.followers > 0) return kept.followers;
      return follows.countTo(targetId);
    },
  };
}
