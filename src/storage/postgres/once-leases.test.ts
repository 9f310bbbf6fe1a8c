// Coordination.runOnce on a real PostgreSQL (once-leases.ts, ADR 0057): the record's own row is
// the lock while the work runs (no keyed lock's row), copies in two processes act once, a failed
// copy gives the row back at once, a dead holder's lease passes (a live one's is renewed), and records as an older Wren
// wrote them (kv rows holding `true`) are honoured until they expire. Within a job's work the
// record is left to the job's end (ADR 0066), the row held as a lease until then. Takes asked while
// one is under way go in one statement, a key twice among them acting once.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { jobsWork } from "../done-records.ts";
import { doneRecordsInsert } from "./done-records-insert.ts";
import { createOnceLeases } from "./once-leases.ts";
import { countedStatements } from "./testing/counted-statements.ts";
import { rawDatabase } from "./testing/hooks.ts";

const NOW = "2026-01-01T00:00:00.000Z";
const DONE_UNTIL = "2026-01-02T00:00:00.000Z";
const record = (n: number) => ["wren", "inboxDone", `https://remote.example/a/${n}`, "digest"];

describe("postgres once-leases", () => {
  const db = rawDatabase(2);
  const rowOf = async (key: string[]) => {
    const [row] = await db.sql<{ value: unknown; expires_at: Date | null }[]>`
      select value, expires_at from kv where key = ${key}::text[]`;
    return row;
  };

  it("acts once on copies in two processes, the record's row holding the lease meanwhile", async () => {
    const [one, two] = [createOnceLeases(db.sql), createOnceLeases(db.sql)];
    const gate = Promise.withResolvers<void>();
    let acted = 0;
    const work = async () => {
      acted++;
      await gate.promise;
    };
    const first = one(record(1), NOW, DONE_UNTIL, work);
    while (acted === 0) await sleep(1);
    const second = two(record(1), NOW, DONE_UNTIL, work);
    // The lease is the record's row; no keyed lock was taken.
    const held = await rowOf(record(1));
    assert.equal(typeof (held?.value as { lease?: unknown } | undefined)?.lease, "string");
    const [locks] = await db.sql<{ n: string }[]>`select count(*) as n from coordination_locks`;
    assert.equal(Number(locks?.n), 0);
    gate.resolve();
    assert.deepEqual(await Promise.all([first, second]), [true, false]);
    assert.equal(acted, 1);
    const done = await rowOf(record(1));
    assert.equal(done?.value, true);
    assert.equal(done?.expires_at?.toISOString(), DONE_UNTIL);
    assert.equal(await one(record(1), NOW, DONE_UNTIL, work), false, "a later replay");
  });

  it("gives the row back when the work fails, so a waiting copy acts at once", async () => {
    const [one, two] = [createOnceLeases(db.sql), createOnceLeases(db.sql)];
    const gate = Promise.withResolvers<void>();
    let attempts = 0;
    const work = async () => {
      attempts++;
      if (attempts === 1) {
        await gate.promise;
        throw new Error("first copy failed");
      }
    };
    const first = one(record(2), NOW, DONE_UNTIL, work);
    while (attempts === 0) await sleep(1);
    const second = two(record(2), NOW, DONE_UNTIL, work);
    gate.resolve();
    await assert.rejects(first, /first copy failed/);
    assert.equal(await second, true);
    assert.equal(attempts, 2);
  });

  it("takes over the lease of a holder that died, once it passes", async () => {
    await db.sql`
      insert into kv (key, value, expires_at)
      values (${record(3)}::text[], '{"lease":"a process that died"}'::jsonb,
              now() + interval '300 milliseconds')`;
    let acted = 0;
    assert.equal(
      await createOnceLeases(db.sql)(record(3), NOW, DONE_UNTIL, async () => void acted++),
      true,
    );
    assert.equal(acted, 1);
  });

  it("renews the lease while long work runs, so no other copy takes it over", async () => {
    const timing = { leaseSeconds: 1, renewSeconds: 0.2, maxPollMs: 50 };
    const [one, two] = [createOnceLeases(db.sql, timing), createOnceLeases(db.sql, timing)];
    let acted = 0;
    const first = one(record(5), NOW, DONE_UNTIL, async () => {
      acted++;
      await sleep(1_600);
    });
    while (acted === 0) await sleep(1);
    const second = two(record(5), NOW, DONE_UNTIL, async () => void acted++);
    assert.deepEqual(await Promise.all([first, second]), [true, false]);
    assert.equal(acted, 1);
  });

  it("leaves the record to the job being run: the lease holds the row until the job's end writes it", async () => {
    const [one, two] = [createOnceLeases(db.sql), createOnceLeases(db.sql)];
    let acted = 0;
    const job = jobsWork(() => one(record(6), NOW, DONE_UNTIL, async () => void acted++));
    assert.equal(await job.outcome, true);
    const held = await rowOf(record(6));
    assert.equal(typeof (held?.value as { lease?: unknown } | undefined)?.lease, "string");
    // A copy in another process waits for the row while the job has not ended.
    const copy = two(record(6), NOW, DONE_UNTIL, async () => void acted++);
    await sleep(100);
    const left = job.close();
    assert.deepEqual(left, [{ key: record(6), until: DONE_UNTIL }]);
    // What JobStore.complete sends with the job's removal.
    await doneRecordsInsert(db.sql, left);
    assert.equal(await copy, false);
    assert.equal(acted, 1);
    const done = await rowOf(record(6));
    assert.equal(done?.value, true);
    assert.equal(done?.expires_at?.toISOString(), DONE_UNTIL);
  });

  it("writes the record itself when the job's end was sent before the work finished", async () => {
    const gate = Promise.withResolvers<void>();
    const runOnce = createOnceLeases(db.sql);
    const job = jobsWork(async () => {
      // Work nobody awaits: it outlives its job.
      void runOnce(record(7), NOW, DONE_UNTIL, () => gate.promise);
    });
    await job.outcome;
    assert.deepEqual(job.close(), []);
    gate.resolve();
    for (let waited = 0; (await rowOf(record(7)))?.value !== true; waited++) {
      assert.ok(waited < 500, "the record was never written");
      await sleep(10);
    }
  });

  it("honours a record an older Wren wrote, until it expires on the caller's clock", async () => {
    await db.sql`
      insert into kv (key, value, expires_at)
      values (${record(4)}::text[], 'true'::jsonb, ${DONE_UNTIL}::timestamptz)`;
    const runOnce = createOnceLeases(db.sql);
    let acted = 0;
    assert.equal(await runOnce(record(4), NOW, DONE_UNTIL, async () => void acted++), false);
    const dayLater = "2026-01-02T00:00:00.001Z";
    assert.equal(
      await runOnce(record(4), dayLater, "2026-01-03T00:00:00.000Z", async () => void acted++),
      true,
    );
    assert.equal(acted, 1);
  });

  it("takes the leases asked while one take is under way in one statement, a key twice acting once", async () => {
    // A take's statement (the records written after the work are other statements).
    const takes = countedStatements(db.sql, "taken as (");
    const runOnce = createOnceLeases(takes.sql);
    const acted: number[] = [];
    /** The take statements sent by the time every lease was taken (the copies poll after). */
    let takesWhenAllActing = 0;
    // Twenty activities, the last five copies of the first five (a replay arriving with them).
    const outcomes = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        runOnce(record(100 + (i % 20)), NOW, DONE_UNTIL, async () => {
          acted.push(i % 20);
          if (acted.length === 20) takesWhenAllActing = takes.count();
          await sleep(20);
        }),
      ),
    );
    assert.deepEqual(
      acted.toSorted((a, b) => a - b),
      Array.from({ length: 20 }, (_, i) => i),
    );
    assert.equal(outcomes.filter((acts) => acts).length, 20);
    // The first alone, the 24 asked while it ran together (the copies told to ask again).
    assert.equal(takesWhenAllActing, 2);
  });

  it("sends the takes of a statement the server refused again alone, failing only the bad one", async () => {
    const runOnce = createOnceLeases(db.sql);
    let acted = 0;
    const work = async () => {
      acted++;
      await sleep(20);
    };
    // The first goes alone; the next five go together, one of them with a time the server
    // cannot read, which fails their statement.
    const first = runOnce(record(200), NOW, DONE_UNTIL, work);
    const gathered = Array.from({ length: 5 }, (_, i) =>
      runOnce(record(201 + i), i === 2 ? "not a time" : NOW, DONE_UNTIL, work),
    );
    const outcomes = await Promise.allSettled([first, ...gathered]);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ["fulfilled", "fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"],
    );
    assert.equal(acted, 5);
  });
});
