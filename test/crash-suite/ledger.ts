// What the clients of the crash suite know for certain: every write the server acknowledged.
// A write whose answer never came (the kill cut it off) may or may not have happened, so the
// fact it touched becomes uncertain until a check has looked at the disk and settled it.

export interface Fact {
  present: boolean;
  certain: boolean;
}

export interface StatusFact {
  accountId: string;
  /** The text of the last acknowledged create or edit; undefined while an edit is in doubt. */
  text: string | undefined;
  deleted: Fact;
  pollId: string | null;
}

export interface ShortPoll {
  pollId: string;
  statusId: string;
  expiresAt: number;
}

/** A post the kill cut off, to be retried after the restart with the same Idempotency-Key. */
export interface PendingPost {
  accountId: string;
  token: string;
  key: string;
  /** The request body (its text is unique, so the files tell how many statuses it made). */
  params: { status: string; poll?: unknown };
}

export const pairKey = (accountId: string, targetId: string) => `${accountId} ${targetId}`;

export class Ledger {
  readonly statuses = new Map<string, StatusFact>();
  /** Favourites, follows and poll votes by `account target` pair. */
  readonly favourites = new Map<string, Fact>();
  readonly follows = new Map<string, Fact>();
  readonly votes = new Map<string, Fact>();
  /** Polls seeded with a deadline seconds away, to prove the job queue survives the kills. */
  readonly shortPolls: ShortPoll[] = [];
  /** Posts whose answer never came, retried (and then checked) after the next start. */
  pendingPosts: PendingPost[] = [];
  /** Posts retried after a crash, over the whole run. */
  retried = 0;
  acknowledged = 0;

  isFollowing(accountId: string, targetId: string): boolean {
    return this.follows.get(pairKey(accountId, targetId))?.present ?? false;
  }

  hasFavourited(accountId: string, statusId: string): boolean {
    return this.favourites.get(pairKey(accountId, statusId))?.present ?? false;
  }

  /** Statuses not known to be deleted (the ones others may act on). */
  liveStatuses(): string[] {
    const ids: string[] = [];
    for (const [id, fact] of this.statuses) if (!fact.deleted.present) ids.push(id);
    return ids;
  }
}

/** Records the outcome of a write on a fact: acknowledged → certain, cut off → in doubt. */
export function settle(map: Map<string, Fact>, key: string, present: boolean, acked: boolean) {
  if (acked) map.set(key, { present, certain: true });
  else map.set(key, { present: map.get(key)?.present ?? false, certain: false });
}
