// Rate-limit units held ahead (counter-reservations.ts, ADR 0054), against a counter in memory
// that records what each statement asked for: the size of a take follows the caller's pace (a
// quarter second of its requests at the last take's pace, at least 64, at most twice the last
// cap; the sixteenth of what the window had left still bounds every take), and countHeld answers
// from held units at once or counts nothing; held units are numbered no higher than the count
// the database gave, whatever order its answers come back in (budgets' too). The database's
// side: counter-reservations.test.ts and budget-reservations.test.ts.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BudgetSpend, CounterHit, CounterWindow } from "../ports.ts";
import { reservingSpend } from "./budget-reservations.ts";
import { RESERVED_AT_MOST, reservingCounts } from "./counter-reservations.ts";
import { nextCap } from "./take-pace.ts";

const NOW = 1_800_000_000_000;
const WINDOW = 300_000;

/** A shared counter in memory (one window per key, as window-counters.ts counts) and its asks. */
function recordingCounter() {
  const used = new Map<string, number>();
  const asked: number[] = [];
  const countInTurn = async (hits: readonly CounterHit[]): Promise<CounterWindow[]> =>
    hits.map((hit) => {
      asked.push(hit.amount);
      const before = used.get(hit.key) ?? 0;
      const added = Math.max(1, Math.min(hit.amount, hit.limit - before));
      used.set(hit.key, before + added);
      return { used: before + added, resetAt: NOW + WINDOW };
    });
  return { countInTurn, asked, used };
}

const hit = (limit: number): CounterHit => ({
  key: "rate:api:token:1",
  amount: 1,
  windowMs: WINDOW,
  limit,
  reservable: true,
});

describe("rate-limit takes at the caller's pace", () => {
  it("caps a take at a quarter second of the last pace, at least the base, at most double", () => {
    assert.equal(nextCap(undefined, NOW, 64), 64);
    // 1,000 units in 100 ms: 2,500 in a quarter second, but at most twice the last cap.
    assert.equal(nextCap({ takenAt: NOW, cap: 512, taken: 1_000, left: 0 }, NOW + 100, 64), 1_024);
    assert.equal(
      nextCap({ takenAt: NOW, cap: 4_096, taken: 1_000, left: 0 }, NOW + 100, 64),
      2_500,
    );
    // Units still held (a window that ended) do not count as handed out.
    assert.equal(
      nextCap({ takenAt: NOW, cap: 4_096, taken: 1_000, left: 600 }, NOW + 100, 64),
      1_000,
    );
    // A slow caller: never below the base.
    assert.equal(nextCap({ takenAt: NOW, cap: 2_048, taken: 64, left: 0 }, NOW + 10_000, 64), 64);
  });

  it("takes more units per statement for a fast caller, each hit still counted once", async () => {
    const counter = recordingCounter();
    const countInTurn = reservingCounts(counter.countInTurn).countInTurn;
    const windows: number[] = [];
    // 2,000 hits at ten a millisecond: each take is used up well within a quarter second.
    for (let i = 0; i < 2_000; i++) {
      const [window] = await countInTurn([hit(1e9)], NOW + Math.floor(i / 10));
      windows.push(window?.used ?? -1);
    }
    assert.deepEqual(
      windows,
      Array.from({ length: 2_000 }, (_, i) => i + 1),
    );
    assert.deepEqual(counter.asked, [1, 128, 256, 512, 1024, 2048]);
    // The shared row counts every unit handed out or held, never fewer.
    assert.equal(counter.used.get("rate:api:token:1"), 1 + 128 + 256 + 512 + 1024 + 2048);
  });

  it("keeps a slow caller's takes at the base cap, and every take within the sixteenth", async () => {
    const slow = recordingCounter();
    const slowCount = reservingCounts(slow.countInTurn).countInTurn;
    for (let i = 0; i < 200; i++) await slowCount([hit(1e9)], NOW + i * 100);
    assert.ok(
      slow.asked.every((amount) => amount <= RESERVED_AT_MOST),
      `${slow.asked}`,
    );

    const small = recordingCounter();
    const smallCount = reservingCounts(small.countInTurn).countInTurn;
    const through: boolean[] = [];
    for (let i = 0; i < 320; i++) {
      const [window] = await smallCount([hit(300)], NOW + i);
      through.push((window?.used ?? Number.POSITIVE_INFINITY) <= 300);
    }
    assert.equal(through.filter(Boolean).length, 300);
    // Mastodon's 300: a sixteenth of what is left, however fast the caller.
    assert.ok(
      small.asked.every((amount) => amount <= 300 / 16),
      `${small.asked}`,
    );
  });
});

describe("rate-limit hits answered from held units at once", () => {
  it("answers only when every hit has units held, and otherwise counts nothing", async () => {
    const counter = recordingCounter();
    const { countInTurn, countHeld } = reservingCounts(counter.countInTurn);
    const other: CounterHit = { ...hit(1e9), key: "rate:api-account:account:1" };
    assert.equal(countHeld([hit(1e9)], NOW), undefined);
    await countInTurn([hit(1e9)], NOW);
    // The first take is one unit, handed out: nothing held yet.
    assert.equal(countHeld([hit(1e9)], NOW), undefined);
    const [second] = await countInTurn([hit(1e9)], NOW);
    assert.equal(second?.used, 2);
    // The second took 128 units: the next hits are answered from them, in order, no promise.
    const held = countHeld([hit(1e9)], NOW);
    assert.ok(Array.isArray(held));
    assert.deepEqual(held, [{ used: 3, resetAt: NOW + WINDOW }]);
    // A hit of a key with nothing held: undefined, and the held key's unit is not taken.
    assert.equal(countHeld([hit(1e9), other], NOW), undefined);
    assert.deepEqual(countHeld([hit(1e9)], NOW), [{ used: 4, resetAt: NOW + WINDOW }]);
    // A window that ended: its units are not handed out.
    assert.equal(countHeld([hit(1e9)], NOW + WINDOW), undefined);
    assert.deepEqual(counter.asked, [1, 128]);
  });
});

describe("rate-limit takes asked ahead", () => {
  it("asks a fast caller's next take before its units run out, so no hit waits", async () => {
    const counter = recordingCounter();
    const { countInTurn, countHeld } = reservingCounts(counter.countInTurn);
    const missedAfter: number[] = [];
    const used: number[] = [];
    for (let i = 0; i < 8_000; i++) {
      const now = NOW + Math.floor(i / 10);
      // As the rate limit asks: held units at once, else a statement.
      let windows = countHeld([hit(1e9)], now);
      if (windows === undefined) {
        if (i >= 200) missedAfter.push(i);
        windows = await countInTurn([hit(1e9)], now);
      }
      used.push(windows[0]?.used ?? -1);
      // The statement asked ahead answers meanwhile (a turn of the event loop).
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.deepEqual(missedAfter, []);
    // Every hit counted once, and the shared row holds at least every unit handed out.
    assert.equal(new Set(used).size, 8_000);
    assert.ok((counter.used.get("rate:api:token:1") ?? 0) >= 8_000);
  });
});

describe("rate-limit takes shared by concurrent hits", () => {
  it("sends one take for the hits that find nothing held while it is on its way", async () => {
    // A take on its way is answered a turn of the event loop later, as the database's would be.
    const asked: number[] = [];
    let used = 0;
    const { countInTurn, countHeld } = reservingCounts(async (hits) => {
      await new Promise((resolve) => setImmediate(resolve));
      return hits.map((h) => {
        asked.push(h.amount);
        used += h.amount;
        return { used, resetAt: NOW + WINDOW };
      });
    });
    // Ten concurrent requests of one caller, each counted once, again and again: as the rate
    // limit asks (held units at once, else countInTurn). Before, every request that found the
    // units gone sent its own take (ten of them at the start, and at each run-out).
    const request = async () => {
      const windows = countHeld([hit(1e9)], NOW) ?? (await countInTurn([hit(1e9)], NOW));
      return windows[0]?.used ?? -1;
    };
    const seen: number[] = [];
    for (let round = 0; round < 30; round++) {
      seen.push(...(await Promise.all(Array.from({ length: 10 }, request))));
    }
    assert.equal(new Set(seen).size, 300);
    assert.ok(Math.max(...seen) <= used);
    // The first take (one unit), then one take at a time as the units run out, each at most
    // twice the last (take-pace.ts): 1 + 128 + 256 units for 300 hits.
    assert.deepEqual(asked, [1, 128, 256]);
  });
});

/**
 * A shared counter whose answers wait to be released: `release` hands them back in the reverse
 * of the order it counted them, as answers on two pooled connections may arrive.
 */
function reorderingCounter(limit: number) {
  let used = 0;
  const waiting: (() => void)[] = [];
  const count = (amount: number) => {
    used += Math.max(1, Math.min(amount, limit - used));
    const window = { used, resetAt: NOW + WINDOW };
    return new Promise<typeof window>((resolve) => waiting.push(() => resolve(window)));
  };
  const release = async () => {
    for (const answer of waiting.splice(0).reverse()) {
      answer();
      await Promise.resolve();
    }
  };
  return { count, release, used: () => used };
}

describe("held units of answers that come back out of order", () => {
  it("are never numbered past the count the database gave, for a rate limit", async () => {
    const limit = 100;
    const counter = reorderingCounter(limit);
    const { countInTurn } = reservingCounts(async (hits) =>
      Promise.all(hits.map((h) => counter.count(h.amount))),
    );
    const first = countInTurn([hit(limit)], NOW);
    await counter.release();
    await first;
    // Two hits with nothing held: the second waits for the first's take of six and is answered
    // from its units, so one statement is in flight for the key and nothing comes back reordered.
    const racing = [countInTurn([hit(limit)], NOW), countInTurn([hit(limit)], NOW)];
    await counter.release();
    const answered = (await Promise.all(racing)).flat();
    for (let i = 0; i < 4; i++) answered.push(...(await countInTurn([hit(limit)], NOW)));
    assert.equal(counter.used(), 7);
    assert.deepEqual(
      answered.map((w) => w.used),
      [2, 3, 4, 5, 6, 7],
    );
  });

  it("are never numbered past the count the database gave, for a budget", async () => {
    const limit = 100;
    const counter = reorderingCounter(limit);
    const spend = reservingSpend({
      spendUpTo: async (_key, amount) => ({ allowed: true, ...(await counter.count(amount)) }),
    });
    const at = (promise: Promise<BudgetSpend>) => counter.release().then(() => promise);
    await at(spend("statuses:1", limit, WINDOW, NOW));
    await at(spend("statuses:1", limit, WINDOW, NOW));
    // Five held of the second take's six; the next five are handed out, then two takes race.
    const answered: BudgetSpend[] = [];
    for (let i = 0; i < 5; i++) answered.push(await spend("statuses:1", limit, WINDOW, NOW));
    const racing = [1, 2].map(() => spend("statuses:1", limit, WINDOW, NOW));
    await counter.release();
    answered.push(...(await Promise.all(racing)));
    for (let i = 0; i < 8; i++) answered.push(await spend("statuses:1", limit, WINDOW, NOW));
    assert.equal(counter.used(), 7 + 2 * 5);
    for (const x of answered) assert.ok(x.allowed && x.used <= counter.used(), `${x.used}`);
  });
});
