// The in-memory indexes of the status store. Each non-deleted status belongs to a set of sorted
// id lists (its author's statuses, the public timeline of its origin, one per hashtag, the
// replies to its parent, the reblogs of its original), each deleted one to the list of deleted
// statuses, and each remote one, deleted or not, to the list of remote statuses; a change of the status (an edit, a deletion, a restore) moves it between lists by
// comparing the sets before and after, so every list and count stays exact without scanning.

import { UniqueIndex } from "./indexes.ts";
import { SortedGroups, type SortedIds } from "./sorted-ids.ts";
import type { StatusSummary } from "./status-summary.ts";

export type Origin = "local" | "remote";

/** Names of the lists; the kind prefix keeps names of different kinds apart. */
export const listKey = {
  account: (accountId: string) => `account:${accountId}`,
  public: (origin: Origin) => `public:${origin}`,
  tag: (origin: Origin, tag: string) => `tag:${origin}:${tag.toLowerCase()}`,
  replies: (statusId: string) => `replies:${statusId}`,
  reblogs: (statusId: string) => `reblogs:${statusId}`,
  /** Deleted statuses, reblogs left out (the purge sweep walks them). */
  deleted: () => "deleted",
  /** Remote statuses, deleted ones and reblogs too (the retention sweep walks them). */
  remote: () => "remote",
};

const reblogKey = (accountId: string, statusId: string) => `${accountId}:${statusId}`;

/** Leaves out replies to others but keeps an author's replies to themselves (threads). */
export function isReplyToOthers(
  s: Pick<StatusSummary, "inReplyToId" | "inReplyToAccountId" | "accountId">,
): boolean {
  return s.inReplyToId !== null && s.inReplyToAccountId !== s.accountId;
}

/** The lists a status belongs to; once deleted, only the list of deleted ones. */
function memberships(s: StatusSummary | undefined): Set<string> {
  const keys = new Set<string>();
  if (s === undefined) return keys;
  if (!s.local) keys.add(listKey.remote());
  if (s.deleted) {
    if (s.reblogOfId === null) keys.add(listKey.deleted());
    return keys;
  }
  keys.add(listKey.account(s.accountId));
  const origin: Origin = s.local ? "local" : "remote";
  if (s.visibility === "public" && s.reblogOfId === null) {
    // Mastodon's public timelines leave out replies to others; hashtag timelines keep them.
    if (!isReplyToOthers(s)) keys.add(listKey.public(origin));
    for (const tag of s.tags) keys.add(listKey.tag(origin, tag));
  }
  if (s.inReplyToId !== null) keys.add(listKey.replies(s.inReplyToId));
  if (s.reblogOfId !== null) keys.add(listKey.reblogs(s.reblogOfId));
  return keys;
}

export class StatusIndexes {
  readonly #lists = new SortedGroups();
  /** `account:original` → the account's reblog of the original. */
  readonly #reblogBy = new UniqueIndex();
  /** ActivityPub id → status id, deleted statuses included (they answer with a Tombstone). */
  readonly #byUri = new UniqueIndex();
  #localCount = 0;
  /** While true (the start-up load), update() leaves the uri index to buildUris(). */
  #urisDeferred = false;
  #urisBuilt: Promise<void> = Promise.resolve();

  /** A list by name (see listKey); undefined when empty. */
  list(key: string): SortedIds | undefined {
    return this.#lists.get(key);
  }

  count(key: string): number {
    return this.#lists.size(key);
  }

  get localCount(): number {
    return this.#localCount;
  }

  async findByUri(uri: string): Promise<string | undefined> {
    await this.#urisBuilt;
    return this.#byUri.get(uri);
  }

  /**
   * Call before the start-up load: a million uri insertions cost seconds of start-up (about a
   * sixth of it), and only federation looks statuses up by uri.
   */
  deferUris(): void {
    this.#urisDeferred = true;
  }

  /**
   * Call after the load with every status: fills the uri index in slices between other work.
   * Changes from then on update it directly; the live iterator sees each status's current
   * summary, so a slice that runs after a change sets the same entry again.
   */
  buildUris(all: Iterable<StatusSummary>): void {
    this.#urisDeferred = false;
    this.#urisBuilt = (async () => {
      let done = 0;
      for (const s of all) {
        this.#byUri.set(s.uri, s.id);
        if (++done % 20_000 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    })();
  }

  findReblog(accountId: string, statusId: string): string | undefined {
    return this.#reblogBy.get(reblogKey(accountId, statusId));
  }

  /** Called on every change of one status: `previous` and `next` are its old and new summary. */
  update(previous: StatusSummary | undefined, next: StatusSummary | undefined): void {
    const before = memberships(previous);
    const after = memberships(next);
    if (previous !== undefined) {
      for (const key of before) if (!after.has(key)) this.#lists.delete(key, previous.id);
    }
    if (next !== undefined) {
      for (const key of after) if (!before.has(key)) this.#lists.add(key, next.id);
    }
    if (!this.#urisDeferred) {
      if (previous !== undefined && previous.uri !== next?.uri) {
        this.#byUri.delete(previous.uri, previous.id);
      }
      if (next !== undefined) this.#byUri.set(next.uri, next.id);
    }
    const listed = (s: StatusSummary | undefined): s is StatusSummary =>
      s !== undefined && !s.deleted;
    if (listed(previous)) {
      if (previous.local) this.#localCount--;
      if (previous.reblogOfId !== null) {
        this.#reblogBy.delete(reblogKey(previous.accountId, previous.reblogOfId), previous.id);
      }
    }
    if (listed(next)) {
      if (next.local) this.#localCount++;
      if (next.reblogOfId !== null) {
        this.#reblogBy.set(reblogKey(next.accountId, next.reblogOfId), next.id);
      }
    }
  }
}
