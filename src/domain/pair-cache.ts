// A bounded cache keyed by three strings (a kind, an account, a target), looked up without
// building a key string. A relationships request asks about 180 pairs: one key string each,
// made by concatenation, must be flattened and hashed before a Map can find it, and that cost
// five times the lookups themselves (a loop of 180 kept pairs: ~120 µs against ~25 µs with
// nested maps of the ids the request already holds, whose hashes V8 keeps).
//
// Forgetting follows LruCache's two generations: a hit in the recent one costs its lookups; a
// hit in the older one moves the entry up; when the recent generation holds half the capacity,
// the older one is dropped whole.

type Generation<V> = Map<string, Map<string, Map<string, V>>>;

function find<V>(generation: Generation<V>, kind: string, account: string, target: string) {
  return generation.get(kind)?.get(account)?.get(target);
}

/** Removes the entry; true if there was one. Empty inner maps go too. */
function remove<V>(generation: Generation<V>, kind: string, account: string, target: string) {
  const accounts = generation.get(kind);
  const targets = accounts?.get(account);
  if (targets === undefined || !targets.delete(target)) return false;
  if (targets.size === 0) {
    accounts?.delete(account);
    if (accounts?.size === 0) generation.delete(kind);
  }
  return true;
}

export class PairCache<V> {
  readonly #half: number;
  #recent: Generation<V> = new Map();
  #recentSize = 0;
  #older: Generation<V> = new Map();
  #olderSize = 0;

  constructor(capacity: number) {
    this.#half = Math.ceil(Math.max(0, capacity) / 2);
  }

  get size(): number {
    return this.#recentSize + this.#olderSize;
  }

  get(kind: string, account: string, target: string): V | undefined {
    const value = find(this.#recent, kind, account, target);
    if (value !== undefined) return value;
    const older = find(this.#older, kind, account, target);
    if (older !== undefined) {
      remove(this.#older, kind, account, target);
      this.#olderSize -= 1;
      this.#keep(kind, account, target, older);
    }
    return older;
  }

  set(kind: string, account: string, target: string, value: V): void {
    if (remove(this.#older, kind, account, target)) this.#olderSize -= 1;
    if (this.#half === 0) return;
    const targets = this.#recent.get(kind)?.get(account);
    if (targets?.has(target)) targets.set(target, value);
    else this.#keep(kind, account, target, value);
  }

  delete(kind: string, account: string, target: string): void {
    if (remove(this.#recent, kind, account, target)) this.#recentSize -= 1;
    if (remove(this.#older, kind, account, target)) this.#olderSize -= 1;
  }

  /** Puts an entry that is in neither generation into the recent one. */
  #keep(kind: string, account: string, target: string, value: V): void {
    if (this.#recentSize >= this.#half) {
      this.#older = this.#recent;
      this.#olderSize = this.#recentSize;
      this.#recent = new Map();
      this.#recentSize = 0;
    }
    let accounts = this.#recent.get(kind);
    if (accounts === undefined) {
      accounts = new Map();
      this.#recent.set(kind, accounts);
    }
    let targets = accounts.get(account);
    if (targets === undefined) {
      targets = new Map();
      accounts.set(account, targets);
    }
    targets.set(target, value);
    this.#recentSize += 1;
  }
}
