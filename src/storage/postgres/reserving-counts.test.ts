// Rate-limit units held ahead (counter-reservations.ts, ADR 0054), against a counter in memory
// that records what each statement asked for: the size of a take follows the caller's pace (a
// quarter second of its requests at the last take's pace, at least 64, at most twice the last
// cap; the sixteenth of what the window had left still bounds every take), and countHeld answers
// from held units at once or counts nothing. The database's side: counter-reservations.test.ts.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CounterHit, CounterWindow } from "../ports.ts";
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
