// Lease-row locks on a real PostgreSQL: nested locks under a tiny pool never starve the work of
// connections, a lease left by a process that died is taken over once it expires, and a lease
// is renewed while long work runs; leases given back while one release is under way go in one
// statement.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createLeaseLocks } from "./lease-locks.ts";
import { countedStatements } from "./testing/counted-statements.ts";
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

  it("gives back the leases released while one release is under way in one statement", async () => {
    const releases = countedStatements(db.sql, "delete from coordination_locks");
    const withLock = createLeaseLocks(releases.sql);
    // Twenty holders, whose work ends together once all hold their leases.
    const gate = Promise.withResolvers<void>();
    let holding = 0;
    const held = Array.from({ length: 20 }, (_, i) =>
      withLock(`post:${i}`, async () => {
        if (++holding === 20) gate.resolve();
        await gate.promise;
      }),
    );
    await Promise.all(held);
    // The first alone, the nineteen asked while it ran together.
    assert.equal(releases.count(), 2);
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
