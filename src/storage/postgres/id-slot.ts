// The id-generator slot of this process (domain/ids.ts): leased in id_slots when the storage
// opens and renewed while it is open, so two live processes never mint in the same slot and
// next() stays synchronous. A slot whose holder stopped renewing (it died) is taken over; the new
// holder starts after the ids the old one may have made (last_ms, plus one renewal interval when
// the old holder did not release the slot cleanly and may have gone on minting after recording it).

import { randomUUID } from "node:crypto";
import { getLogger } from "@logtape/logtape";
import { createIdSource, type IdGenerator, type IdSpace } from "../../domain/ids.ts";
import type { Sql } from "./connect.ts";

const logger = getLogger(["wren", "storage", "ids"]);

/** 8 of the 16 low bits: 256 processes at once, each 256 ids per millisecond before borrowing. */
export const SLOT_BITS = 8;
const SLOTS = 1 << SLOT_BITS;
const LEASE_SECONDS = 60;
const RENEW_SECONDS = 15;
/** Taking a slot races with other starting processes; each lost race is retried. */
const ATTEMPTS = 20;

export interface IdSlot {
  /** A generator minting in this slot (several share one sequence). */
  generator(now: () => number): IdGenerator;
  /** Stops renewing and gives the slot back, recording how far its ids went. */
  release(): Promise<void>;
}

interface SlotRow {
  slot: number;
  last_ms: string;
  released: boolean;
}

async function take(sql: Sql, holder: string): Promise<SlotRow> {
  const lease = LEASE_SECONDS;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // A slot never used yet (a race with another starter loses to the conflict: try again).
    const fresh = await sql<SlotRow[]>`
      insert into id_slots (slot, holder, expires_at, last_ms, released)
      select s, ${holder}, now() + make_interval(secs => ${lease}), 0, false
      from generate_series(0, ${SLOTS - 1}) as s
      where not exists (select 1 from id_slots where slot = s)
      order by s limit 1
      on conflict (slot) do nothing
      returning slot, last_ms, released`;
    if (fresh[0]) return fresh[0];
    // A slot given back or abandoned; the row as it was tells how far its ids went.
    const reused = await sql<SlotRow[]>`
      update id_slots as n
      set holder = ${holder}, expires_at = now() + make_interval(secs => ${lease}), released = false
      from (
        select slot, last_ms, released from id_slots
        where expires_at <= now() order by expires_at limit 1 for update skip locked
      ) as old
      where n.slot = old.slot
      returning old.slot, old.last_ms, old.released`;
    if (reused[0]) return reused[0];
    const [count] = await sql<{ n: string }[]>`select count(*) as n from id_slots`;
    if (Number(count?.n) >= SLOTS) {
      throw new Error(`All ${SLOTS} id slots are held by live Wren processes`);
    }
  }
  throw new Error("Could not lease an id slot (too many processes starting at once)");
}

export async function leaseIdSlot(sql: Sql): Promise<IdSlot> {
  const holder = randomUUID();
  const row = await take(sql, holder);
  const lastMs = Number(row.last_ms);
  const space: IdSpace = {
    slot: row.slot,
    slotBits: SLOT_BITS,
    floorMs: lastMs === 0 ? 0 : lastMs + (row.released ? 0 : RENEW_SECONDS * 1000),
  };
  const ids = createIdSource(space);
  const highWater = () => ids.lastMs;
  const renew = () =>
    sql`
      update id_slots
      set expires_at = now() + make_interval(secs => ${LEASE_SECONDS}),
          last_ms = greatest(last_ms, ${highWater()})
      where slot = ${row.slot} and holder = ${holder}
      returning slot`.then(
      (rows) => {
        if (rows.length === 0)
          logger.error("Lost id slot {slot}: ids may collide", { slot: row.slot });
      },
      (error: unknown) =>
        logger.warn("Could not renew id slot {slot}: {error}", { slot: row.slot, error }),
    );
  const timer = setInterval(renew, RENEW_SECONDS * 1000);
  timer.unref();
  return {
    generator: (now) => ids.generator(now),
    async release() {
      clearInterval(timer);
      await sql`
        update id_slots
        set expires_at = now(), released = true, last_ms = greatest(last_ms, ${highWater()})
        where slot = ${row.slot} and holder = ${holder}`;
    },
  };
}
