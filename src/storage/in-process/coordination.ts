// Coordination for a storage one process owns (json-file, by its lock file): locks and counters
// in this process's memory are then exact, and the whole id space is this process's. Budgets
// must outlive a restart, so they are kept in the storage's key-value store, spent under this
// process's keyed lock (one read and one write, no retries).

import { createIdSource } from "../../domain/ids.ts";
import type { Coordination, CounterWindow, KvStore } from "../ports.ts";
import { createKeyedLock } from "./keyed-lock.ts";

/** Finished windows are swept once this many keys are held (the rate limits keep their own). */
const SWEEP_AT = 10_000;

const budgetKey = (key: string) => ["wren", "budget", key];

export function createInProcessCoordination(kv: KvStore): Coordination {
  const windows = new Map<string, CounterWindow>();
  const ids = createIdSource();
  const withLock = createKeyedLock();

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

  /** The budget's window still running at `now`, if any. */
  async function liveBudget(key: string, now: number): Promise<CounterWindow | undefined> {
    const window = (await kv.get(budgetKey(key)))?.value as CounterWindow | undefined;
    return window && window.resetAt > now ? window : undefined;
  }

  function saveBudget(key: string, window: CounterWindow): Promise<void> {
    const expiresAt = new Date(window.resetAt).toISOString();
    return kv.set({ key: budgetKey(key), value: window, expiresAt });
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
    spend: (key, limit, windowMs, now) =>
      withLock(`budget:${key}`, async () => {
        const window = (await liveBudget(key, now)) ?? { used: 0, resetAt: now + windowMs };
        if (window.used >= limit) return { ...window, allowed: false };
        const spent = { used: window.used + 1, resetAt: window.resetAt };
        await saveBudget(key, spent);
        return { ...spent, allowed: true };
      }),
    refund: (key, resetAt) =>
      withLock(`budget:${key}`, async () => {
        const window = (await kv.get(budgetKey(key)))?.value as CounterWindow | undefined;
        if (!window || window.resetAt !== resetAt || window.used === 0) return;
        await saveBudget(key, { used: window.used - 1, resetAt });
      }),
    idGenerator: (now) => ids.generator(now),
  };
}
