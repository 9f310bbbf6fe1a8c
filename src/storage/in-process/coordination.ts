// Coordination for a storage one process owns (json-file, by its lock file): locks and counters
// in this process's memory are then exact, and the whole id space is this process's.

import { createIdSource } from "../../domain/ids.ts";
import type { Coordination, CounterWindow } from "../ports.ts";
import { createKeyedLock } from "./keyed-lock.ts";

/** Finished windows are swept once this many keys are held (the rate limits keep their own). */
const SWEEP_AT = 10_000;

export function createInProcessCoordination(): Coordination {
  const windows = new Map<string, CounterWindow>();
  const ids = createIdSource();
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
  return {
    exclusive: true,
    withLock: createKeyedLock(),
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
    idGenerator: (now) => ids.generator(now),
  };
}
