// Coordination.withLockReadingStatus on PostgreSQL (ADR 0063): the keyed lock's lease taken and
// the status stored under a uri read in one round trip, by migration 0053's function. Ingesting
// a remote post takes `remote-status:<uri>` and first looks whether the post is stored: two
// statements, now one. The function reads after its insert took the lease, with a snapshot of its
// own, so it sees what the lock's previous holder committed (the migration says why one plain
// statement would not).

import { deepFreeze } from "../../domain/deep-freeze.ts";
import type { Status } from "../../domain/status.ts";
import type { Coordination } from "../ports.ts";
import type { Sql } from "./connect.ts";
import type { LeaseLocks, TakeReading } from "./lease-locks.ts";

interface TakenRow {
  taken: boolean;
  status_json: string | null;
}

export function lockReadingStatus(
  sql: Sql,
  locks: LeaseLocks,
): NonNullable<Coordination["withLockReadingStatus"]> {
  return (key, uri, work) => {
    const attempt: TakeReading<Status | undefined> = async (row, holder, leaseSeconds) => {
      const [answer] = await sql<TakenRow[]>`
        select taken, status_json
        from wren_take_lock_read_status(${row}, ${holder}, ${leaseSeconds}::int, ${uri})`;
      if (!answer?.taken) return { taken: false };
      const json = answer.status_json;
      // Frozen as the status store's records are (record-identities.ts).
      return {
        taken: true,
        read: json === null ? undefined : deepFreeze(JSON.parse(json) as Status),
      };
    };
    return locks.reading(key, attempt, work);
  };
}
