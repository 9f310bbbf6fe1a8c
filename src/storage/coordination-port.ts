// The storage port that keeps several processes sharing one storage correct (locks, counters,
// budgets, ids): part of ports.ts, kept apart for its size. Imports only domain/.

import type { IdGenerator } from "../domain/ids.ts";

/** One caller's fixed window of a counter (rate limits). */
export interface CounterWindow {
  /** What was counted in this window so far, the amount just added included. */
  used: number;
  /** When the window ends (ms since the epoch); the next count after it starts a new one. */
  resetAt: number;
}

/** The answer to a budget spend: whether it was allowed, and the window as it now stands. */
export interface BudgetSpend extends CounterWindow {
  allowed: boolean;
}

/** One count of Coordination.countInTurn. */
export interface CounterHit {
  key: string;
  amount: number;
  windowMs: number;
  /** The most the window may hold: past it, the later hits are left uncounted. */
  limit: number;
  /**
   * A rate limit's hit, which a storage shared by processes may count ahead (PostgreSQL,
   * counter-reservations.ts): it may take several units of the window at once, never past
   * `limit`, and answer this process's next hits of the key from them without asking. The
   * window's `used` then counts units not yet handed out, so the limit is never exceeded and a
   * caller may be refused by one process while another holds a few of its units. Only for hits
   * of `amount` 1.
   */
  reservable?: boolean;
}

/**
 * What keeps several processes sharing one storage correct where one process alone relied on
 * its memory: keyed locks, shared counters and the id space. json-file is owned by one process
 * (its lock file), so its coordination is in memory; PostgreSQL's holds across processes.
 */
export interface Coordination {
  /**
   * True when this process is the only one using the storage: in-memory state is then exact,
   * and hot paths (rate limits) may keep it in their own memory instead of asking here.
   */
  readonly exclusive: boolean;
  /**
   * Runs `work` while holding the lock named `key`: at most one holder per key at a time among
   * all processes sharing the storage, the others wait in turn. Locks of different keys may be
   * nested only in one fixed order (as callers already do), or two holders could wait forever.
   */
  withLock<T>(key: string, work: () => Promise<T>): Promise<T>;
  /**
   * Where processes share the storage: runs `work` unless the key–value entry `record` says it
   * was done (the value `true`, not expired at `now`, ISO), and then stores that record until
   * `doneUntil` (ISO); true when `work` ran. Copies running at once in several processes are
   * serialised as by withLock(): a later one waits, then skips (or runs, if the first failed).
   * The record is written after the work, never claimed before it: a copy whose process died
   * holds the key no longer than a lock's lease. In one statement per step where the storage
   * can (the inbox's once-guard, federation/inbox/once.ts); absent where one process owns the
   * storage (`exclusive`), whose callers need no more than their own memory and a read.
   */
  runOnce?(
    record: readonly string[],
    now: string,
    doneUntil: string,
    work: () => Promise<void>,
  ): Promise<boolean>;
  /**
   * Adds `amount` (0: only reads) to `key`'s count in its current fixed window and returns the
   * window. A key without a window, or whose window ended at or before `now` (ms), starts a new
   * one at `now` lasting `windowMs`. Counts of every process add up. A read of a window whose
   * units this process holds (reservable hits, countInTurn) answers what this process counted:
   * the next hit is then sure to be let through, whatever the other processes counted since.
   */
  count(key: string, amount: number, windowMs: number, now: number): Promise<CounterWindow>;
  /**
   * Takes one unit of the budget `key` (at most `limit` per fixed window of `windowMs` that
   * starts with the first spend after the last window ended) unless it is spent, in one atomic
   * step: of racing spends for the last unit, from any process, exactly one is allowed. Kept
   * like records, so a restart does not reset it. A refused spend takes nothing.
   */
  spend(key: string, limit: number, windowMs: number, now: number): Promise<BudgetSpend>;
  /** Gives back one unit of `key`'s window ending at `resetAt` (a later window is left alone). */
  refund(key: string, resetAt: number): Promise<void>;
  /**
   * Several counts in one step (one statement on a shared database), as if count() were called
   * for each hit in turn until a window's `used` passed its hit's `limit`: the hits after that
   * one are not counted, as a request refused by one rate limit is not counted by the next.
   * Returns the windows counted, in order (a prefix of `hits`). Keys must differ; amounts > 0.
   */
  countInTurn(hits: readonly CounterHit[], now: number): Promise<CounterWindow[]>;
  /**
   * countInTurn answered at once from units this process holds (reservable hits only), with no
   * statement and no promise; undefined (nothing counted) when any hit would need the shared
   * counter, which countInTurn then asks. Absent where nothing is held ahead.
   */
  countHeld?(hits: readonly CounterHit[], now: number): CounterWindow[] | undefined;
  /**
   * An id generator (domain/ids.ts) on `now`'s clock whose ids no other process sharing the
   * storage can make: it mints in this process's share of the id space.
   */
  idGenerator(now: () => number): IdGenerator;
}
