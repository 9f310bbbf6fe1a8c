// Coordination.withLockReadingStatus on a real PostgreSQL (lock-reading-status.ts, ADR 0063): the
// lock's take answers the status stored under the uri (or none), the lock is the keyed lock's own
// (a holder of withLock() on the key, here or in another process, is waited for), and a waiter sees
// the status its predecessor stored before giving the lock back.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { Status } from "../../domain/status.ts";
import { makeStatus } from "../contract/fixtures.ts";
import type { Coordination } from "../ports.ts";
import { connectPostgres } from "./connect.ts";
import { eventually, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

const URI = "https://remote.test/statuses/1";
const KEY = `remote-status:${URI}`;

const readingOf = (coordination: Coordination) => {
  const reading = coordination.withLockReadingStatus;
  assert.ok(reading, "PostgreSQL takes the lock and reads in one round trip");
  return reading;
};

describe("postgres lock reading a status", () => {
  const processes = twoProcessesOnOneDatabase(2);

  it("answers the status stored under the uri, or none, and gives the lock back", async () => {
    const { a } = processes;
    const reading = readingOf(a.coordination);
    assert.equal(await reading(KEY, URI, async (stored) => stored), undefined);
    await a.statuses.put(makeStatus({ id: "100", accountId: "7", uri: URI, local: false }));
    const found = await reading(KEY, URI, async (stored) => stored);
    assert.equal(found?.id, "100");
    assert.ok(Object.isFrozen(found), "frozen as the status store's records are");
    // Given back just after the answer (the caller's next statement shares its round trip).
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      await eventually(
        async () => (await sql<{ n: string }[]>`select count(*) as n from coordination_locks`)[0],
        (left) => Number(left?.n) === 0,
      );
    } finally {
      await sql.end();
    }
  });

  it("waits for a holder of the same key in another process, and sees what it stored", async () => {
    const { a, b } = processes;
    const gate = Promise.withResolvers<void>();
    let holding = false;
    const first = a.coordination.withLock(KEY, async () => {
      holding = true;
      await gate.promise;
      await a.statuses.put(makeStatus({ id: "200", accountId: "7", uri: URI, local: false }));
    });
    while (!holding) await sleep(1);
    const seen: (Status | undefined)[] = [];
    const second = readingOf(b.coordination)(KEY, URI, async (stored) => {
      seen.push(stored);
    });
    await sleep(50);
    assert.equal(seen.length, 0, "the second waits while the first holds the lock");
    gate.resolve();
    await Promise.all([first, second]);
    assert.equal(seen[0]?.id, "200");
  });

  it("fails its caller when the work fails, and gives the lock back", async () => {
    const { a, b } = processes;
    await assert.rejects(
      readingOf(a.coordination)(KEY, URI, async () => {
        throw new Error("the work failed");
      }),
      /the work failed/,
    );
    assert.equal(await b.coordination.withLock(KEY, async () => "taken"), "taken");
  });

  it("is the keyed lock of this process too: one holder of the key at a time", async () => {
    const { a } = processes;
    const events: string[] = [];
    await Promise.all([
      a.coordination.withLock(KEY, async () => {
        events.push("lock in");
        await sleep(30);
        events.push("lock out");
      }),
      readingOf(a.coordination)(KEY, URI, async () => {
        events.push("reading");
      }),
    ]);
    assert.deepEqual(events, ["lock in", "lock out", "reading"]);
  });
});
