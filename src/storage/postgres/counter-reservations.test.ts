// Rate-limit hits counted ahead per process (counter-reservations.ts, ADR 0042), on a real
// database with two processes: a lone process's counts are exact and most hits send no
// statement (the shared row runs ahead of them); two processes never let a caller past the
// limit, a small limit is counted exactly, and a refused hit stops the hits after it.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import postgres from "postgres";
import type { CounterHit, Storage } from "../ports.ts";
import { connectPostgres } from "./connect.ts";
import { twoProcessesOnOneDatabase } from "./testing/hooks.ts";
import { createWindowCounters } from "./window-counters.ts";

const NOW = 1_800_000_000_000;
const MINUTE = 60_000;

const hit = (key: string, limit: number): CounterHit => ({
  key,
  amount: 1,
  windowMs: MINUTE,
  limit,
  reservable: true,
});

/** Whether one more hit of `key` from `storage` is let through. */
async function allowed(storage: Storage, key: string, limit: number): Promise<boolean> {
  const [window] = await storage.coordination.countInTurn([hit(key, limit)], NOW + 1);
  return window !== undefined && window.used <= limit;
}

describe("postgres rate-limit counts held per process", () => {
  const processes = twoProcessesOnOneDatabase(2);

  it("counts one process's hits exactly, most of them without a statement", async () => {
    const { a } = processes;
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    const shared = async () =>
      Number((await sql<{ used: string }[]>`select used from coordination_counters`)[0]?.used);
    try {
      const used: number[] = [];
      for (let i = 0; i < 40; i++) {
        const [window] = await a.coordination.countInTurn([hit("rate:x", 1000)], NOW);
        used.push(window?.used ?? -1);
        // The first hit takes one unit; the second a sixteenth of the 999 left (62), handed
        // out by the next 61.
        if (i === 1) assert.equal(await shared(), 63);
        if (i === 31) assert.equal(await shared(), 63);
      }
      assert.deepEqual(
        used,
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      assert.ok((await shared()) <= 1000);
    } finally {
      await sql.end();
    }
  });

  it("answers a read of a window whose units it holds without a statement", async () => {
    const { a, b } = processes;
    // a takes one unit, then 62 (a sixteenth of the 999 left), hands out 1 of them.
    for (let i = 0; i < 3; i++) await a.coordination.countInTurn([hit("rate:read", 1000)], NOW);
    // a answers what it counted (a statement would answer the shared 63); b, holding none, asks.
    assert.deepEqual(await a.coordination.count("rate:read", 0, MINUTE, NOW), {
      used: 3,
      resetAt: NOW + MINUTE,
    });
    assert.equal((await b.coordination.count("rate:read", 0, MINUTE, NOW)).used, 63);
    // Past its window, a's units are no answer: the shared (new, empty) window is.
    assert.equal((await a.coordination.count("rate:read", 0, MINUTE, NOW + MINUTE)).used, 0);
  });

  it("never lets a caller past its limit from two processes; a small one exactly", async () => {
    const { a, b } = processes;
    for (const limit of [6, 100]) {
      const key = `rate:${limit}`;
      let through = 0;
      let refusals = 0;
      for (let i = 0; refusals < 4; i++) {
        if (await allowed(i % 2 === 0 ? a : b, key, limit)) through += 1;
        else refusals += 1;
      }
      if (limit === 6) assert.equal(through, 6);
      // At most 15 units held by the other process (of 100, at most 100/16 each time).
      assert.ok(through <= limit && through >= limit - 15, `${through} of ${limit}`);
    }
  });

  it("leaves the hits after a refused one uncounted, held units given back", async () => {
    const { a } = processes;
    // Units of rate:wide held by this process.
    for (let i = 0; i < 3; i++) await a.coordination.countInTurn([hit("rate:wide", 1000)], NOW);
    const [first] = await a.coordination.countInTurn([hit("rate:narrow", 1)], NOW);
    assert.equal(first?.used, 1);
    const refused = await a.coordination.countInTurn(
      [hit("rate:narrow", 1), hit("rate:wide", 1000)],
      NOW,
    );
    assert.deepEqual(
      refused.map((w) => w.used),
      [2],
    );
    const [wide] = await a.coordination.countInTurn([hit("rate:wide", 1000)], NOW);
    assert.equal(wide?.used, 4);
    // A finished window starts again from one.
    const [later] = await a.coordination.countInTurn([hit("rate:wide", 1000)], NOW + MINUTE);
    assert.equal(later?.used, 1);
  });

  it("commits rate-limit counts without waiting for the disk, and only those (ADR 0054)", async () => {
    // One connection: what a count sets must not stay on it for the statements after it.
    const sent: string[] = [];
    const sql = postgres(processes.database.url, {
      max: 1,
      onnotice: () => {},
      debug: (_connection, query) => sent.push(query),
    });
    /** Whether the last statement sent committed without waiting for the disk. */
    const lastAsync = () =>
      /set_config\('synchronous_commit', 'off', true\)/.test(sent.at(-1) ?? "");
    const commitSetting = async () =>
      (await sql<{ setting: string }[]>`select current_setting('synchronous_commit') as setting`)[0]
        ?.setting;
    try {
      const counters = createWindowCounters(sql);
      // Within the counting statement's own transaction, synchronous_commit is off.
      const [inside] = await sql<{ setting: string }[]>`
        select current_setting('synchronous_commit') as setting
        from (select set_config('synchronous_commit', 'off', true)) as async_commit`;
      assert.equal(inside?.setting, "off");
      assert.equal(await commitSetting(), "on");
      assert.equal((await counters.count("rate:async", 1, MINUTE, NOW)).used, 1);
      assert.ok(lastAsync());
      const turn = await counters.countInTurn([hit("rate:async", 100), hit("rate:b", 100)], NOW);
      assert.ok(lastAsync());
      assert.deepEqual(
        turn.map((w) => w.used),
        [2, 1],
      );
      assert.equal(await commitSetting(), "on");
      // A budget (statuses, media) must hold across a crash: its spend waits for the disk.
      const spent = await counters.spend("budget:async", 10, MINUTE, NOW);
      assert.equal(spent.allowed, true);
      assert.ok(!lastAsync());
      assert.equal(await commitSetting(), "on");
    } finally {
      await sql.end();
    }
  });
});
