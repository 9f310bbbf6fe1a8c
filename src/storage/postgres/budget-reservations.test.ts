// Budget spends taken ahead per process (budget-reservations.ts, ADR 0043 amended), on a real
// database with two processes: a lone process's spends are numbered exactly and most send no
// statement; two processes racing never overdraw a budget and leave few units unspent; a small
// budget is spent one unit at a time; a refund is shared, whoever spends it.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Storage } from "../ports.ts";
import { connectPostgres } from "./connect.ts";
import { twoProcessesOnOneDatabase } from "./testing/hooks.ts";

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;

const spend = (storage: Storage, key: string, limit: number, at = NOW) =>
  storage.coordination.spend(key, limit, HOUR, at);

describe("postgres budgets held per process", () => {
  const processes = twoProcessesOnOneDatabase(2);

  it("numbers one process's spends exactly, most of them without a statement", async () => {
    const { a } = processes;
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    const shared = async (key: string) =>
      Number(
        (
          await sql<{ used: string }[]>`select used from coordination_counters where key = ${key}`
        )[0]?.used,
      );
    try {
      const used: number[] = [];
      for (let i = 0; i < 40; i++) {
        const answer = await spend(a, "statuses:1", 1000);
        assert.equal(answer.allowed, true);
        assert.equal(answer.resetAt, NOW + HOUR);
        used.push(answer.used);
        // The first spend takes one unit; the second a sixteenth of the 999 left (62), handed
        // out by the next 61 without a statement.
        if (i === 1 || i === 39) assert.equal(await shared("statuses:1"), 63);
      }
      assert.deepEqual(
        used,
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      // A budget under 32 is spent one by one: the shared row counts each spend.
      for (let i = 1; i <= 3; i++) {
        assert.equal((await spend(a, "media:1", 30)).used, i);
        assert.equal(await shared("media:1"), i);
      }
    } finally {
      await sql.end();
    }
  });

  it("never overdraws a budget spent by two processes, and loses few units", async () => {
    const { a, b } = processes;
    // a holds a few units of the window; b, racing it, spends the rest.
    for (let i = 0; i < 3; i++) await spend(a, "statuses:2", 100);
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) => spend(i % 3 === 0 ? a : b, "statuses:2", 100, NOW + i)),
    );
    const more = [];
    // What is still held by either process is spent by that process's next spends.
    for (const side of [a, b]) {
      for (let i = 0; i < 70; i++) more.push(await spend(side, "statuses:2", 100, NOW + 200 + i));
    }
    const allowed = [...answers, ...more].filter((x) => x.allowed);
    // Units asked for past what was left are counted as one, the rest lost (never one too
    // many): a race may leave a few unspent, never more than the 100.
    assert.ok(allowed.length + 3 <= 100 && allowed.length + 3 >= 90, `${allowed.length + 3}`);
    for (const x of [...answers, ...more]) assert.ok(x.used <= 100);
  });

  it("shares a refund with every process, and starts a new window after the last", async () => {
    const { a, b } = processes;
    for (let i = 0; i < 5; i++) assert.equal((await spend(a, "statuses:3", 5)).allowed, true);
    assert.equal((await spend(b, "statuses:3", 5)).allowed, false);
    await a.coordination.refund("statuses:3", NOW + HOUR);
    assert.deepEqual(await spend(b, "statuses:3", 5), {
      allowed: true,
      used: 5,
      resetAt: NOW + HOUR,
    });
    assert.deepEqual(await spend(a, "statuses:3", 5, NOW + HOUR), {
      allowed: true,
      used: 1,
      resetAt: NOW + 2 * HOUR,
    });
  });
});
