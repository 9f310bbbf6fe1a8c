// Lease-row locks on a real PostgreSQL: nested locks under a tiny pool never starve the work of
// connections, a lease left by a process that died is taken over once it expires, and a lease
// is renewed while long work runs.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createLeaseLocks } from "./lease-locks.ts";
import { rawDatabase } from "./testing/hooks.ts";

describe("postgres lease locks", () => {
  // Two connections for everything: holders, waiters and the locked work's own queries.
  const db = rawDatabase(2);

  it("runs many nested holders on a pool smaller than their number", async () => {
    const withLock = createLeaseLocks(db.sql);
    let done = 0;
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        withLock(`attach:${i % 4}`, () =>
          withLock(`media:${i}`, async () => {
            await db.sql`select pg_sleep(0.01)`;
            done++;
          }),
        ),
      ),
    );
    assert.equal(done, 12);
    const [left] = await db.sql<{ n: string }[]>`select count(*) as n from coordination_locks`;
    assert.equal(Number(left?.n), 0);
  });

  it("takes over a lease whose holder stopped renewing it, once it expires", async () => {
    await db.sql`
      insert into coordination_locks (key, holder, expires_at)
      values ('poll:9', 'a process that died', now() + interval '300 milliseconds')`;
    const withLock = createLeaseLocks(db.sql);
    assert.equal(await withLock("poll:9", async () => "taken over"), "taken over");
  });

  it("renews a held lease so long work keeps it", async () => {
    const timing = { leaseSeconds: 1.5, renewSeconds: 0.1, maxPollMs: 10 };
    const withLock = createLeaseLocks(db.sql, timing);
    const other = createLeaseLocks(db.sql, timing);
    const events: string[] = [];
    await Promise.all([
      withLock("long", async () => {
        events.push("first in");
        // Well past the lease: only renewals keep the other process out.
        await sleep(3500);
        events.push("first out");
      }),
      (async () => {
        while (events.length === 0) await sleep(1);
        await other("long", async () => {
          events.push("second");
        });
      })(),
    ]);
    assert.deepEqual(events, ["first in", "first out", "second"]);
  });
});
