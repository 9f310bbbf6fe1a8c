// follows.countTo from the accounts' kept counters (kept-follower-counts.ts, ADR 0057), on a real
// database with two processes: a status put keeps its author's counters, and a count of its
// followers is then answered from them (shown by a change made with the triggers off, which
// sends no signal: the kept answer stays); a kept zero is read again; another process's
// unfollow reaches the kept counters through its signal.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { makeFollow, makeStatus } from "../contract/fixtures.ts";
import { connectPostgres } from "./connect.ts";
import { eventually, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

describe("postgres follower counts from the kept account counters", () => {
  const processes = twoProcessesOnOneDatabase(4);

  it("answers a kept positive count without a statement, reads a kept zero", async () => {
    const { a, b } = processes;
    await a.follows.put(makeFollow({ id: "1", accountId: "20", targetId: "10" }));
    // The follow's own signal, heard back, forgets the account's counters: let it come first.
    await sleep(500);
    // The put keeps its author's counters (migration 0048): one follower.
    await a.statuses.put(makeStatus({ id: "500", accountId: "10" }));
    await a.statuses.put(makeStatus({ id: "501", accountId: "11" }));
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      await sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`update edge_counts set n = 7 where kind = 'follows' and side = 'to' and id = '10'`;
        await tx`
          insert into edge_counts (kind, side, id, n) values ('follows', 'to', '11', 3)
          on conflict do nothing`;
      });
      assert.equal(await a.follows.countTo("10"), 1, "kept");
      // Kept as none: asked of the table.
      assert.equal(await a.follows.countTo("11"), 3);
      // b keeps nothing of 10: the table.
      assert.equal(await b.follows.countTo("10"), 7);
    } finally {
      await sql.end();
    }
    // Another process's unfollow: its signal makes a forget what it kept.
    assert.equal(await b.follows.delete("20", "10"), true);
    await eventually(
      () => a.follows.countTo("10"),
      (n) => n === 6,
    );
  });
});
