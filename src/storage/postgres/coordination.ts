// The Coordination port on PostgreSQL: lease-row locks, upserted window counters and budgets, a leased
// id slot, so every process on the database shares them (migration 0007_coordination).

import type { Coordination } from "../ports.ts";
import { reservingSpend } from "./budget-reservations.ts";
import type { Sql } from "./connect.ts";
import { reservingCounts } from "./counter-reservations.ts";
import { leaseIdSlot } from "./id-slot.ts";
import { createLeaseLocks } from "./lease-locks.ts";
import { createOnceLeases } from "./once-leases.ts";
import { createWindowCounters } from "./window-counters.ts";

export interface PgCoordination {
  coordination: Coordination;
  /** Gives the id slot back (at close). */
  release(): Promise<void>;
}

export async function openCoordination(sql: Sql): Promise<PgCoordination> {
  const slot = await leaseIdSlot(sql);
  const counters = createWindowCounters(sql);
  // Rate limits' hits answered from units held by this process where exact (ADR 0042), taken
  // at the caller's pace (ADR 0054).
  const reserving = reservingCounts(counters.countInTurn);
  return {
    coordination: {
      exclusive: false,
      withLock: createLeaseLocks(sql),
      // The record's own row as the lock: two statements per once-guarded task (ADR 0057).
      runOnce: createOnceLeases(sql),
      // A read of a window this process holds units of is answered from them (ADR 0057): a
      // success-only limit looks before every inbox delivery.
      count: async (key, amount, windowMs, now) =>
        (amount === 0 ? reserving.heldWindow(key, now) : undefined) ??
        counters.count(key, amount, windowMs, now),
      refund: counters.refund,
      countInTurn: reserving.countInTurn,
      countHeld: reserving.countHeld,
      // Budgets likewise (ADR 0043 amended).
      spend: reservingSpend(counters),
      idGenerator: (now) => slot.generator(now),
    },
    release: () => slot.release(),
  };
}
