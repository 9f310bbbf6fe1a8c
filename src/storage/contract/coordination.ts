// Storage contract: coordination (keyed locks, window counters, id generators) holds across
// every process sharing the storage. `t.peer()` plays the other process (for json-file, which
// one process owns, it is the same storage, whose callers must still see one another).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep, setImmediate as tick } from "node:timers/promises";
import { compareIds, isId } from "../../domain/ids.ts";
import type { ContractContext } from "./context.ts";

/** Waits (without a deadline: the test runner's timeout is the limit) until `done()`. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await sleep(1);
}

export function coordinationContract(t: ContractContext): void {
  describe("coordination", () => {
    it("keeps a second process out of a held lock until it is released", async () => {
      const peer = await t.peer();
      const events: string[] = [];
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const first = t.storage.coordination.withLock("post:1", async () => {
        events.push("first in");
        await released;
        events.push("first out");
      });
      await until(() => events.length === 1);
      const second = peer.coordination.withLock("post:1", async () => {
        events.push("second");
      });
      // Another key is free meanwhile.
      assert.equal(
        await peer.coordination.withLock("post:2", async () => "other key"),
        "other key",
      );
      // Long enough for a lock that failed to exclude to have let the second one in.
      await sleep(100);
      assert.deepEqual(events, ["first in"]);
      release();
      await Promise.all([first, second]);
      assert.deepEqual(events, ["first in", "first out", "second"]);
    });

    it("makes read-modify-write sequences of two processes one at a time", async () => {
      const peer = await t.peer();
      const sides = [t.storage.coordination, peer.coordination];
      let value = 0;
      await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          sides[i % 2]?.withLock("counter", async () => {
            const read = value;
            await tick();
            await sleep(1);
            value = read + 1;
          }),
        ),
      );
      assert.equal(value, 16);
    });

    it("passes on a lock whose work failed, and answers the work's value", async () => {
      const peer = await t.peer();
      await assert.rejects(
        t.storage.coordination.withLock("fails", async () => {
          throw new Error("boom");
        }),
        /boom/,
      );
      assert.equal(await peer.coordination.withLock("fails", async () => 42), 42);
    });

    it("adds up counts of every process within one window", async () => {
      const peer = await t.peer();
      const now = 1_800_000_000_000;
      const minute = 60_000;
      const a = t.storage.coordination;
      const b = peer.coordination;
      assert.deepEqual(await a.count("rate:api:ip:1", 1, minute, now), {
        used: 1,
        resetAt: now + minute,
      });
      await Promise.all([
        a.count("rate:api:ip:1", 1, minute, now + 10),
        b.count("rate:api:ip:1", 1, minute, now + 20),
        b.count("rate:api:ip:1", 2, minute, now + 30),
      ]);
      // Reading counts nothing.
      assert.deepEqual(await a.count("rate:api:ip:1", 0, minute, now + 40), {
        used: 5,
        resetAt: now + minute,
      });
      assert.deepEqual(await b.count("rate:api:ip:1", 1, minute, now + 50), {
        used: 6,
        resetAt: now + minute,
      });
      // Other keys count apart; an unknown key reads as an empty window.
      assert.equal((await b.count("rate:api:ip:2", 1, minute, now)).used, 1);
      assert.equal((await a.count("rate:api:ip:3", 0, minute, now)).used, 0);
    });

    it("counts several keys in turn, stopping after a window past its limit", async () => {
      const peer = await t.peer();
      const now = 1_800_000_000_000;
      const minute = 60_000;
      const hits = (limit: number) => [
        { key: "rate:a", amount: 1, windowMs: minute, limit },
        { key: "rate:b", amount: 2, windowMs: 2 * minute, limit: 100 },
      ];
      assert.deepEqual(await t.storage.coordination.countInTurn(hits(2), now), [
        { used: 1, resetAt: now + minute },
        { used: 2, resetAt: now + 2 * minute },
      ]);
      // Counts of count() and of another process add up with them.
      await peer.coordination.count("rate:a", 1, minute, now + 1);
      // rate:a reaches 3, past its limit of 2: rate:b is left uncounted.
      assert.deepEqual(await peer.coordination.countInTurn(hits(2), now + 2), [
        { used: 3, resetAt: now + minute },
      ]);
      assert.equal((await t.storage.coordination.count("rate:b", 0, minute, now + 3)).used, 2);
      // A window at its limit (not past it) lets the next count.
      assert.deepEqual(await t.storage.coordination.countInTurn(hits(4), now + 4), [
        { used: 4, resetAt: now + minute },
        { used: 4, resetAt: now + 2 * minute },
      ]);
      // A finished window starts again, each on its own length.
      assert.deepEqual(await peer.coordination.countInTurn(hits(4), now + minute), [
        { used: 1, resetAt: now + 2 * minute },
        { used: 6, resetAt: now + 2 * minute },
      ]);
      assert.deepEqual(await t.storage.coordination.countInTurn([], now), []);
      // One hit alone is counted, whatever its limit.
      assert.deepEqual(
        await t.storage.coordination.countInTurn(
          [{ key: "rate:c", amount: 3, windowMs: minute, limit: 1 }],
          now,
        ),
        [{ used: 3, resetAt: now + minute }],
      );
    });

    it("starts a new window once the old one has ended", async () => {
      const peer = await t.peer();
      const now = 1_800_000_000_000;
      await t.storage.coordination.count("k", 3, 1000, now);
      assert.deepEqual(await peer.coordination.count("k", 0, 1000, now + 1000), {
        used: 0,
        resetAt: now + 2000,
      });
      assert.deepEqual(await peer.coordination.count("k", 1, 1000, now + 1000), {
        used: 1,
        resetAt: now + 2000,
      });
    });

    it("spends a budget atomically across processes and keeps it across a reopen", async () => {
      const peer = await t.peer();
      const now = 1_800_000_000_000;
      const hour = 3_600_000;
      const sides = [t.storage.coordination, peer.coordination];
      // Twelve racing spends of a budget of five: exactly five allowed, whichever process asks.
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => sides[i % 2]?.spend("statuses:7", 5, hour, now)),
      );
      const allowed = answers.filter((a) => a?.allowed);
      assert.equal(allowed.length, 5);
      assert.deepEqual(allowed.map((a) => a?.used).sort(), [1, 2, 3, 4, 5]);
      for (const answer of answers) assert.equal(answer?.resetAt, now + hour);
      // A refusal takes nothing; other keys have their own budget.
      assert.deepEqual(await t.storage.coordination.spend("statuses:7", 5, hour, now + 20), {
        allowed: false,
        used: 5,
        resetAt: now + hour,
      });
      assert.equal((await peer.coordination.spend("media:7", 5, hour, now)).used, 1);
      // A refund of this window frees one unit; one of another window changes nothing.
      await peer.coordination.refund("statuses:7", now + hour - 1);
      await peer.coordination.refund("statuses:7", now + hour);
      const reopened = await t.reopen();
      assert.deepEqual(await reopened.coordination.spend("statuses:7", 5, hour, now + 30), {
        allowed: true,
        used: 5,
        resetAt: now + hour,
      });
      assert.equal(
        (await reopened.coordination.spend("statuses:7", 5, hour, now + 31)).allowed,
        false,
      );
      // Once the window has ended, a new one starts with the next spend.
      assert.deepEqual(await reopened.coordination.spend("statuses:7", 5, hour, now + hour), {
        allowed: true,
        used: 1,
        resetAt: now + 2 * hour,
      });
    });

    it("gives each process ids no other process makes, ordered within each", async () => {
      const peer = await t.peer();
      // One frozen millisecond for both: the worst case for a shared id space.
      const frozen = () => 1_800_000_000_000;
      const a = t.storage.coordination.idGenerator(frozen);
      const b = peer.coordination.idGenerator(frozen);
      const fromA = Array.from({ length: 1500 }, () => a.next());
      const fromB = Array.from({ length: 1500 }, () => b.next());
      assert.equal(new Set([...fromA, ...fromB]).size, 3000);
      for (const ids of [fromA, fromB]) {
        assert.ok(ids.every(isId));
        assert.deepEqual([...ids].sort(compareIds), ids);
      }
    });
  });
}
