// The edge id of each (account, target) pair of an edge store, filed by account, then by target.
// A page asks about one account's edges to many targets at once (the viewer's blocks, mutes,
// favourites… of twenty statuses or authors): filed this way that is one lookup of the account's
// map, none at all when the account has no edge of the kind (most viewers block, mute, pin and
// bookmark nothing), then one lookup per target by the id itself. A map keyed by the pair joined
// into one string built and hashed a new string per target, the largest single item of a
// signed-in page's hydration.

export class PairIndex {
  readonly #byAccount = new Map<string, Map<string, string>>();

  get(accountId: string, targetId: string): string | undefined {
    return this.#byAccount.get(accountId)?.get(targetId);
  }

  /** The account's edges by target; undefined when it has none. Do not keep it. */
  targetsOf(accountId: string): ReadonlyMap<string, string> | undefined {
    return this.#byAccount.get(accountId);
  }

  set(accountId: string, targetId: string, edgeId: string): void {
    let targets = this.#byAccount.get(accountId);
    if (!targets) {
      targets = new Map();
      this.#byAccount.set(accountId, targets);
    }
    targets.set(targetId, edgeId);
  }

  /** Forgets the pair if it still names `edgeId` (a newer edge of the pair stays). */
  delete(accountId: string, targetId: string, edgeId: string): void {
    const targets = this.#byAccount.get(accountId);
    if (targets?.get(targetId) !== edgeId) return;
    targets.delete(targetId);
    if (targets.size === 0) this.#byAccount.delete(accountId);
  }
}
