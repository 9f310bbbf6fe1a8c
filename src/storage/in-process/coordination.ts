// Coordination for a storage one process owns (json-file, by its lock file): locks and counters
// in this process's memory are then exact, and the whole id space is this process's. Budgets
// must outlive a restart, so they are kept in the storage's key-value store: the process reads a
// budget from it once, decides every spend from its own copy in one synchronous step, and writes
// the budgets spent since the last write at most once a second and when the storage closes. A
// spend therefore costs no write of its own (50 clients posting as one account would otherwise
// wait on one key's writes in turn); a crash forgets at most the last second's spends, as a
// rate limit kept in Redis does (ADR 0009). The API rate limits are not kept at all.

import { createIdSource } from "../../domain/ids.ts";
import type { Coordination, CounterWindow, KvStore } from "../ports.ts";
import { createKeyedLock } from "./keyed-lock.ts";

/** Finished windows are swept once this many keys are held (the rate limits keep their own). */
const SWEEP_AT = 10_000;

/** How long a spent budget may wait before it is written. */
const SAVE_EVERY_MS = 1000;

const budgetKey = (key: string) => ["wren", "budget", key];

export interface InProcessCoordination extends Coordination {
  /** Writes the budgets not yet written and stops writing (the storage closes after it). */
  close(): Promise<void>;
}

export function createInProcessCoordination(kv: KvStore): InProcessCoordination {
  const windows = new Map<string, CounterWindow>();
  const ids = createIdSource();
  const withLock = createKeyedLock();
  /** Budgets as this process last read or spent them (undefined: none stored). */
  const budgets = new Map<string, CounterWindow | undefined>();
  /** Budgets spent or refunded since they were last written. */
  const unsaved = new Set<string>();
  let saveTimer: NodeJS.Timeout | undefined;
  let saving: Promise<void> = Promise.resolve();
  let closed = false;

  async function count(
    key: string,
    amount: number,
    windowMs: number,
    now: number,
  ): Promise<CounterWindow> {
    let window = windows.get(key);
    if (!window || window.resetAt <= now) {
      if (windows.size >= SWEEP_AT) {
        for (const [k, w] of windows) if (w.resetAt <= now) windows.delete(k);
      }
      window = { used: 0, resetAt: now + windowMs };
      if (amount === 0) return window;
      windows.set(key, window);
    }
    window.used += amount;
    return { ...window };
  }

  /** Reads the budget from the key–value store into `budgets` unless it is there already. */
  async function loadBudget(key: string, now: number): Promise<void> {
    if (budgets.has(key)) return;
    if (budgets.size >= SWEEP_AT) {
      for (const [k, w] of budgets) if (!w || w.resetAt <= now) budgets.delete(k);
    }
    // One read per budget even when its first spends race.
    await withLock(`budget:${key}`, async () => {
      if (!budgets.has(key)) {
        budgets.set(key, (await kv.get(budgetKey(key)))?.value as CounterWindow | undefined);
      }
    });
  }

  /** Notes a changed budget; the next write (within a second) takes it. */
  function budgetChanged(key: string): void {
    unsaved.add(key);
    if (!closed) saveTimer ??= setTimeout(() => void saveBudgets(), SAVE_EVERY_MS).unref();
  }

  /** Writes every changed budget; one write at a time, so an older value never lands last. */
  function saveBudgets(): Promise<void> {
    clearTimeout(saveTimer);
    saveTimer = undefined;
    saving = saving.then(async () => {
      const keys = [...unsaved];
      unsaved.clear();
      const failed: string[] = [];
      await Promise.all(
        keys.map(async (key) => {
          const window = budgets.get(key);
          if (!window) return;
          const expiresAt = new Date(window.resetAt).toISOString();
          await kv.set({ key: budgetKey(key), value: window, expiresAt }).catch(() => {
            failed.push(key);
          });
        }),
      );
      // A failed write (a full disk) is tried again with the next one.
      for (const key of failed) budgetChanged(key);
    });
    return saving;
  }

  return {
    exclusive: true,
    withLock,
    count,
    async countInTurn(hits, now) {
      const counted: CounterWindow[] = [];
      for (const hit of hits) {
        const window = await count(hit.key, hit.amount, hit.windowMs, now);
        counted.push(window);
        if (window.used > hit.limit) break;
      }
      return counted;
    },
    async spend(key, limit, windowMs, now) {
      await loadBudget(key, now);
      // From here on, no await: the check and the spend are one step (a spend that loaded the
      // budget may resume after others have spent from it, so read it again here).
      const kept = budgets.get(key);
      const window = kept && kept.resetAt > now ? kept : { used: 0, resetAt: now + windowMs };
      if (window.used >= limit) return { ...window, allowed: false };
      const spent = { used: window.used + 1, resetAt: window.resetAt };
      budgets.set(key, spent);
      budgetChanged(key);
      return { ...spent, allowed: true };
    },
    async refund(key, resetAt) {
      await loadBudget(key, resetAt - 1);
      const window = budgets.get(key);
      if (!window || window.resetAt !== resetAt || window.used === 0) return;
      const refunded = { used: window.used - 1, resetAt };
      budgets.set(key, refunded);
      budgetChanged(key);
    },
    idGenerator: (now) => ids.generator(now),
    close() {
      closed = true;
      return saveBudgets();
    },
  };
}
