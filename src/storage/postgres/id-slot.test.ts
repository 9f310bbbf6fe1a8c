// Id slots on a real PostgreSQL: a slot taken over from a process that is gone never repeats
// the ids it may have made, and a process refuses to start rather than share a slot.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { timeFromId } from "../../domain/ids.ts";
import { leaseIdSlot, SLOT_BITS } from "./id-slot.ts";
import { rawDatabase } from "./testing/hooks.ts";

const SLOTS = 1 << SLOT_BITS;
const LAST_MS = 1_800_000_000_000;

describe("postgres id slots", () => {
  const db = rawDatabase(2);

  /** Every slot held by a live process, but `free`, left as given. */
  async function fillAllBut(free: { slot: number; released: boolean; expired: boolean }) {
    await db.sql`
      insert into id_slots (slot, holder, expires_at, last_ms, released)
      select s, 'someone', now() + interval '1 hour', 0, false
      from generate_series(0, ${SLOTS - 1}) as s where s <> ${free.slot}`;
    await db.sql`
      insert into id_slots (slot, holder, expires_at, last_ms, released)
      values (${free.slot}, 'gone', now() + ${free.expired ? "-1 second" : "1 hour"}::interval,
              ${LAST_MS}, ${free.released})`;
  }

  it("takes over an abandoned slot after the ids its holder may have made", async () => {
    await fillAllBut({ slot: 7, released: false, expired: true });
    const slot = await leaseIdSlot(db.sql);
    try {
      const id = slot.generator(() => LAST_MS - 5_000).next();
      // The old holder recorded LAST_MS and may have gone on for one renewal interval.
      assert.ok(timeFromId(id).getTime() > LAST_MS + 10_000);
      const low = BigInt(id) & 0xffffn;
      assert.equal(Number(low >> BigInt(16 - SLOT_BITS)), 7);
    } finally {
      await slot.release();
    }
  });

  it("continues right after a slot given back cleanly", async () => {
    await fillAllBut({ slot: 3, released: true, expired: true });
    const slot = await leaseIdSlot(db.sql);
    try {
      const id = slot.generator(() => LAST_MS - 5_000).next();
      assert.equal(timeFromId(id).getTime(), LAST_MS + 1);
    } finally {
      await slot.release();
    }
  });

  it("records how far its ids went when given back", async () => {
    const slot = await leaseIdSlot(db.sql);
    slot.generator(() => LAST_MS + 42).next();
    await slot.release();
    const [row] = await db.sql<{ last_ms: string; released: boolean }[]>`
      select last_ms, released from id_slots`;
    assert.deepEqual(row && { lastMs: Number(row.last_ms), released: row.released }, {
      lastMs: LAST_MS + 42,
      released: true,
    });
  });

  it("refuses to start when every slot is held by a live process", async () => {
    await fillAllBut({ slot: 0, released: false, expired: false });
    await assert.rejects(leaseIdSlot(db.sql), /All 256 id slots are held/);
  });
});
