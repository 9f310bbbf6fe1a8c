// The Coordination port on PostgreSQL: lease-row locks, upserted window counters and a leased
// id slot, so every process on the database shares them (migration 0007_coordination).

import type { Coordination } from "../ports.ts";
import type { Sql } from "./connect.ts";
import { leaseIdSlot } from "./id-slot.ts";
import { createLeaseLocks } from "./lease-locks.ts";
import { createWindowCounters } from "./window-counters.ts";

export interface PgCoordination {
  coordination: Coordination;
  /** Gives the id slot back (at close). */
  release(): Promise<void>;
}

export async function openCoordination(sql: Sql): Promise<PgCoordination> {
  const slot = await leaseIdSlot(sql);
  return {
    coordination: {
      exclusive: false,
      withLock: createLeaseLocks(sql),
      ...createWindowCounters(sql),
      idGenerator: (now) => slot.generator(now),
    },
    release: () => slot.release(),
  };
}
