// Two Wren processes on one database, as two Storage instances with a pool each: they see each
// other's edges and key-value entries, hear of each other's writes (Storage.version), and
// compare-and-set on one key lets exactly one of them win, however the race falls.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeFollow } from "../contract/fixtures.ts";
import type { KvEntry, Storage } from "../ports.ts";
import { eventually, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

const NOW = "2025-01-01T00:00:00.000Z";
const entry = (key: string[], value: unknown, expiresAt: string | null = null): KvEntry => ({
  key,
  value,
  expiresAt,
});

/** Resolves once `storage.version()` differs from `from` (the other process's NOTIFY arrived). */
async function versionMoves(storage: Storage, from: number): Promise<void> {
  while (storage.version() === from) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("postgres: two processes on one database", () => {
  const processes = twoProcessesOnOneDatabase();

  it("see each other's edges and hear of each other's writes", async () => {
    const before = processes.b.version();
    const follow = makeFollow({ id: "10", accountId: "1", targetId: "2" });
    await processes.a.follows.put(follow);
    assert.deepEqual(await processes.b.follows.get("1", "2"), follow);
    assert.equal(await processes.b.follows.countTo("2"), 1);
    await versionMoves(processes.b, before);

    // A replacement from the other side keeps one edge for the pair, with its id.
    await processes.b.follows.put({ ...follow, id: "20", notify: true });
    assert.deepEqual(await processes.a.follows.get("1", "2"), {
      ...follow,
      id: "20",
      notify: true,
    });
    assert.deepEqual(
      (await processes.a.follows.listFrom("1", { limit: 40 })).map((e) => e.id),
      ["20"],
    );
    const deleted = await Promise.all([
      processes.a.follows.delete("1", "2"),
      processes.b.follows.delete("1", "2"),
    ]);
    assert.deepEqual(deleted.filter(Boolean), [true]);
  });

  it("see each other's key-value entries and hear of each other's domain blocks", async () => {
    await processes.b.kv.set(entry(["_fedify", "doc", "https://x.test/a"], { id: "a" }));
    assert.deepEqual(
      await processes.a.kv.get(["_fedify", "doc", "https://x.test/a"]),
      entry(["_fedify", "doc", "https://x.test/a"], { id: "a" }),
    );
    assert.deepEqual(
      (await processes.a.kv.list(["_fedify"])).map((e) => e.key),
      [["_fedify", "doc", "https://x.test/a"]],
    );
  });

  it("hear of each other's domain blocks, not of protocol caches", async () => {
    // Only domain blocks show in API answers. Notifications arrive in commit order, so once the
    // second block is heard every earlier write's notification has been too.
    const before = processes.a.version();
    await processes.b.kv.set(entry(["_fedify", "doc", "https://x.test/b"], { id: "b" }));
    await processes.b.kv.set(
      entry(["wren", "domainBlock", "spam.example"], { severity: "suspend" }),
    );
    await versionMoves(processes.a, before);
    const afterFirst = processes.a.version();
    await processes.b.kv.set(entry(["_fedify", "doc", "https://x.test/c"], { id: "c" }));
    await processes.b.kv.delete(["wren", "domainBlock", "spam.example"]);
    await versionMoves(processes.a, afterFirst);
    assert.equal(processes.a.version() - before, 2);
  });

  it("hear of each other's trend reviews (migration 0034)", async () => {
    const before = processes.a.version();
    await processes.b.kv.set(entry(["wren", "trendReview", "tag", "1"], { trendable: false }));
    await versionMoves(processes.a, before);
    const afterFirst = processes.a.version();
    await processes.b.kv.delete(["wren", "trendReview", "tag", "1"]);
    await versionMoves(processes.a, afterFirst);
    // Two signals per write: the table's (0034) and the entry's, kept per process (0041).
    await eventually(
      async () => processes.a.version() - before,
      (moved) => moved === 4,
    );
  });

  it("keep each other's circuit states until one writes them (migration 0051)", async () => {
    const key = ["_fedify", "circuit", "down.example"];
    const open = { state: "open", failures: [NOW], opened: NOW };
    // Read twice per delivery, kept per process: the absent answer is kept too.
    assert.equal(await processes.a.kv.get(key), undefined);
    await processes.b.kv.set(entry(key, open));
    assert.deepEqual(
      await eventually(
        () => processes.a.kv.get(key),
        (found) => found !== undefined,
      ),
      entry(key, open),
    );
    // A compare-and-set from the kept state (Fedify's circuit breaker writes so) succeeds.
    assert.equal(await processes.a.kv.compareAndSet(open, entry(key, undefined), NOW), true);
    assert.equal(
      await eventually(
        () => processes.b.kv.get(key),
        (found) => found === undefined,
      ),
      undefined,
    );
  });

  it("compare-and-set on one key from both lets exactly one win", async () => {
    // Absent: both insert at once.
    for (let round = 0; round < 10; round++) {
      const key = ["race", String(round)];
      const wins = await Promise.all([
        processes.a.kv.compareAndSet(undefined, entry(key, "a"), NOW),
        processes.b.kv.compareAndSet(undefined, entry(key, "b"), NOW),
      ]);
      assert.equal(wins.filter(Boolean).length, 1);
      assert.equal((await processes.a.kv.get(key))?.value, wins[0] ? "a" : "b");
    }

    // Present: both replace the same value, written by one and read back (keys reordered) by
    // the other, as Fedify's circuit breaker does.
    await processes.a.kv.set(entry(["breaker"], { state: "open", failures: ["t1"], version: 1 }));
    const reread = { version: 1, failures: ["t1"], state: "open" };
    const wins = await Promise.all([
      processes.a.kv.compareAndSet(
        { state: "open", failures: ["t1"], version: 1 },
        entry(["breaker"], "a"),
        NOW,
      ),
      processes.b.kv.compareAndSet(reread, entry(["breaker"], "b"), NOW),
    ]);
    assert.equal(wins.filter(Boolean).length, 1);

    // Expired at `now`: counts as absent for both.
    await processes.a.kv.set(entry(["lapsed"], 1, "2024-12-31T00:00:00.000Z"));
    const lapsed = await Promise.all([
      processes.a.kv.compareAndSet(undefined, entry(["lapsed"], "a"), NOW),
      processes.b.kv.compareAndSet(undefined, entry(["lapsed"], "b"), NOW),
    ]);
    assert.equal(lapsed.filter(Boolean).length, 1);
  });

  it("loses no increment of a counter both keep by compare-and-set", async () => {
    const key = ["counter"];
    const increment = async (storage: Storage) => {
      for (;;) {
        const current = (await storage.kv.get(key))?.value as { n: number } | undefined;
        const next = entry(key, { n: (current?.n ?? 0) + 1 });
        if (await storage.kv.compareAndSet(current, next, NOW)) return;
      }
    };
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => increment(i % 2 === 0 ? processes.a : processes.b)),
    );
    assert.deepEqual((await processes.a.kv.get(key))?.value, { n: 20 });
  });
});
