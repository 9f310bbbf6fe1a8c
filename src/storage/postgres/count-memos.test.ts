// The counters and status lists kept per process (joined-reads.ts, status-list-memo.ts, ADR
// 0042), on a real database with two processes: what one writes reaches what the other keeps,
// through the change signals of migration 0039; this process's own writes are seen at once.
// That they are kept at all is shown by a write with the triggers off (session_replication_role
// = replica, the database owner's switch): it sends no signal, so the kept answer stays.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeEdge, makeFavourite, makeFollow, makeStatus } from "../contract/fixtures.ts";
import type { Storage } from "../ports.ts";
import { connectPostgres } from "./connect.ts";
import { eventually, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

const PAGE = { limit: 20 };
const ids = (list: readonly { id?: string; status_id?: string }[]) =>
  list.map((s) => s.id ?? s.status_id);

async function statusCounts(storage: Storage, id: string) {
  return (await storage.joined.statusCounts([id])).get(id);
}

async function accountCounts(storage: Storage, id: string) {
  return (await storage.joined.accountCounts([id])).get(id);
}

describe("postgres counter and list memos across processes", () => {
  const processes = twoProcessesOnOneDatabase(4);

  it("sees another process's favourite, reblog, reply and quote in a status's counters", async () => {
    const { a, b } = processes;
    await a.statuses.put(makeStatus({ id: "100", accountId: "1" }));
    assert.deepEqual(await statusCounts(b, "100"), {
      replies: 0,
      reblogs: 0,
      favourites: 0,
      quotes: 0,
    });

    await a.favourites.put(makeFavourite({ id: "1", accountId: "2", targetId: "100" }));
    // The writer's own memo forgets at once.
    assert.equal((await statusCounts(a, "100"))?.favourites, 1);
    await eventually(
      () => statusCounts(b, "100"),
      (c) => c?.favourites === 1,
    );

    await a.statuses.put(makeStatus({ id: "101", accountId: "2", reblogOfId: "100" }));
    assert.equal((await statusCounts(a, "100"))?.reblogs, 1);
    await eventually(
      () => statusCounts(b, "100"),
      (c) => c?.reblogs === 1,
    );

    await a.statuses.put(
      makeStatus({ id: "102", accountId: "3", inReplyToId: "100", inReplyToAccountId: "1" }),
    );
    assert.equal((await statusCounts(a, "100"))?.replies, 1);
    await eventually(
      () => statusCounts(b, "100"),
      (c) => c?.replies === 1,
    );

    await a.quotes.put(makeEdge({ id: "5", accountId: "103", targetId: "100" }));
    await eventually(
      () => statusCounts(b, "100"),
      (c) => c?.quotes === 1,
    );

    // Undone: the reblog deleted, the favourite taken back.
    assert.equal(await a.statuses.delete("101"), true);
    assert.equal((await statusCounts(a, "100"))?.reblogs, 0);
    assert.equal(await a.favourites.delete("2", "100"), true);
    assert.equal((await statusCounts(a, "100"))?.favourites, 0);
    await eventually(
      () => statusCounts(b, "100"),
      (c) => c?.reblogs === 0 && c.favourites === 0 && c.replies === 1,
    );
  });

  it("sees another process's posts and follows in an account's counters", async () => {
    const { a, b } = processes;
    assert.deepEqual(await accountCounts(b, "7"), {
      statuses: 0,
      lastStatusAt: null,
      followers: 0,
      following: 0,
    });
    await a.statuses.put(
      makeStatus({ id: "200", accountId: "7", createdAt: "2026-11-27T04:00:00.000Z" }),
    );
    assert.equal((await accountCounts(a, "7"))?.statuses, 1);
    await eventually(
      () => accountCounts(b, "7"),
      (c) => c?.statuses === 1 && c.lastStatusAt === "2026-11-27T04:00:00.000Z",
    );

    await a.follows.put(makeFollow({ id: "1", accountId: "8", targetId: "7" }));
    assert.equal((await accountCounts(a, "7"))?.followers, 1);
    assert.equal((await accountCounts(a, "8"))?.following, 1);
    await eventually(
      () => b.joined.accountCounts(["7", "8"]),
      (c) => c.get("7")?.followers === 1 && c.get("8")?.following === 1,
    );
  });

  it("keeps its author's counters as a status put answers them (migration 0048)", async () => {
    const { a, b } = processes;
    await b.follows.put(makeFollow({ id: "2", accountId: "15", targetId: "14" }));
    await b.follows.put(makeFollow({ id: "3", accountId: "14", targetId: "16" }));
    // a keeps the author's empty list, so seeing b's status in it means hearing b's signals.
    assert.deepEqual(await a.statuses.listByAccount("14", PAGE), []);
    await b.statuses.put(
      makeStatus({ id: "600", accountId: "14", createdAt: "2026-11-27T05:00:00.000Z" }),
    );
    // Once a has heard b's last write, nothing of b's is in flight to a.
    await eventually(
      () => a.statuses.listByAccount("14", PAGE),
      (list) => list.length === 1,
    );
    await a.statuses.put(
      makeStatus({ id: "601", accountId: "14", createdAt: "2026-11-27T06:00:00.000Z" }),
    );
    const put = {
      statuses: 2,
      lastStatusAt: "2026-11-27T06:00:00.000Z",
      followers: 1,
      following: 1,
    };
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      // Changed without triggers (no signal): a answers what its put read back, not the table.
      await sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`update account_status_counts set statuses = 40 where account_id = 14`;
      });
      assert.deepEqual(await accountCounts(a, "14"), put);
      // b read nothing before: it reads the table.
      assert.equal((await accountCounts(b, "14"))?.statuses, 40);
      // A deletion's put answers the counters after it too.
      await a.statuses.put(makeStatus({ id: "601", accountId: "14", deleted: true }));
      assert.deepEqual(await accountCounts(a, "14"), {
        ...put,
        statuses: 39,
        lastStatusAt: "2026-11-27T05:00:00.000Z",
      });
    } finally {
      await sql.end();
    }
  });

  it("keeps the last of its author's counters when puts by one author run at once (migration 0049)", async () => {
    const { a } = processes;
    // Twenty puts in flight together: each one's own telling of its write would, unordered,
    // make every other's answer unkeepable; the versions order them.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        a.statuses.put(makeStatus({ id: String(700 + i), accountId: "17" })),
      ),
    );
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      await sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`update account_status_counts set statuses = 40 where account_id = 17`;
      });
      // What a kept: the last version's counters, not the table (no signal told it of the 40).
      assert.equal((await accountCounts(a, "17"))?.statuses, 20);
      // A put of a status already there (an update, migration 0049) moving it to another author:
      // both authors' counters change, the former's read again from the table.
      await a.statuses.put(makeStatus({ id: "700", accountId: "18" }));
      assert.equal((await accountCounts(a, "17"))?.statuses, 39);
      assert.equal((await accountCounts(a, "18"))?.statuses, 1);
      assert.deepEqual(ids(await a.statuses.listByAccount("18", PAGE)), ["700"]);
    } finally {
      await sql.end();
    }
  });

  it("sees another process's new and deleted statuses in the lists", async () => {
    const { a, b } = processes;
    await a.statuses.put(makeStatus({ id: "300", accountId: "9" }));
    const reads = {
      account: () => b.statuses.listByAccount("9", PAGE),
      home: () => b.statuses.listEntriesByAccounts(["9", "10"], PAGE),
      public: () => b.statuses.listPublicEntries(PAGE, { origin: "all" }),
    };
    assert.deepEqual(ids(await reads.account()), ["300"]);
    assert.deepEqual(ids(await reads.home()), ["300"]);
    assert.deepEqual(ids(await reads.public()), ["300"]);

    await a.statuses.put(makeStatus({ id: "301", accountId: "9" }));
    assert.deepEqual(ids(await a.statuses.listByAccount("9", PAGE)), ["301", "300"]);
    await eventually(reads.account, (list) => list.length === 2);
    await eventually(reads.home, (list) => list.length === 2);
    await eventually(reads.public, (list) => list.length === 2);

    // A status leaving the public timeline by an update (deleted as a record) leaves the lists.
    await a.statuses.put(makeStatus({ id: "300", accountId: "9", deleted: true }));
    assert.deepEqual(ids(await a.statuses.listPublicEntries(PAGE, { origin: "all" })), ["301"]);
    await eventually(reads.public, (list) => ids(list).join() === "301");
    await eventually(reads.account, (list) => ids(list).join() === "301");
    await eventually(reads.home, (list) => ids(list).join() === "301");

    // Another author's status is in none of these lists but the public one.
    await a.statuses.put(makeStatus({ id: "302", accountId: "11" }));
    await eventually(reads.public, (list) => ids(list).join() === "302,301");
  });

  it("keeps what it read until a signal names it, and hears of writes made in SQL alone", async () => {
    const { a, b } = processes;
    // b keeps that author 13 has no status; a's status of 13 below, written after the rest,
    // reaches b's list only through its signal, and signals arrive in commit order: once b sees
    // it, every signal of the writes before it has arrived, and nothing is left in flight.
    assert.deepEqual(await b.statuses.listByAccount("13", PAGE), []);
    await a.statuses.put(makeStatus({ id: "400", accountId: "12" }));
    await a.favourites.put(makeFavourite({ id: "1", accountId: "2", targetId: "400" }));
    await a.statuses.put(makeStatus({ id: "499", accountId: "13" }));
    await eventually(
      () => b.statuses.listByAccount("13", PAGE),
      (list) => list.length === 1,
    );
    assert.equal((await statusCounts(b, "400"))?.favourites, 1);
    assert.deepEqual(ids(await b.statuses.listByAccount("12", PAGE)), ["400"]);
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      // Without triggers: no signal, so b keeps what it read (and a count no trigger kept).
      await sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`update edge_counts set n = 5 where kind = 'favourites' and id = '400'`;
        await tx`update statuses set deleted = true where id = 400`;
      });
      assert.equal((await statusCounts(b, "400"))?.favourites, 1);
      assert.deepEqual(ids(await b.statuses.listByAccount("12", PAGE)), ["400"]);

      // With them: the counter row's signal names the status, the status's its author.
      await sql`update edge_counts set n = 6 where kind = 'favourites' and id = '400'`;
      await eventually(
        () => statusCounts(b, "400"),
        (c) => c?.favourites === 6,
      );
      await sql`update statuses set local = local where id = 400`;
      await eventually(
        () => b.statuses.listByAccount("12", PAGE),
        (list) => list.length === 0,
      );

      // A truncation names no rows: everything is forgotten.
      await a.statuses.put(makeStatus({ id: "401", accountId: "12" }));
      await eventually(
        () => b.statuses.listByAccount("12", PAGE),
        (list) => list.length === 1,
      );
      await sql`truncate edges, statuses`;
      await eventually(
        () => statusCounts(b, "400"),
        (c) => c?.favourites === 0,
      );
      await eventually(
        () => b.statuses.listByAccount("12", PAGE),
        (list) => list.length === 0,
      );
    } finally {
      await sql.end();
    }
  });

  it("sees another process's preview cards and links to them", async () => {
    const { a, b } = processes;
    const link = ["wren", "statusCard", "500"];
    const card = ["wren", "previewCard", "https://example.test/a,b|c"];
    const values = async () => (await b.kv.getMany([link, card, ["other"]])).map((e) => e?.value);
    assert.deepEqual(await values(), [undefined, undefined, undefined]);
    await a.kv.set({ key: card, value: { url: "https://example.test/a,b|c" }, expiresAt: null });
    await a.kv.set({ key: link, value: "https://example.test/a,b|c", expiresAt: null });
    await a.kv.set({ key: ["other"], value: 1, expiresAt: null });
    // The writer sees its own writes at once; the other process once notified.
    assert.equal((await a.kv.get(link))?.value, "https://example.test/a,b|c");
    await eventually(values, (v) => v[0] !== undefined && v[1] !== undefined && v[2] === 1);
    assert.deepEqual((await b.kv.get(card))?.value, { url: "https://example.test/a,b|c" });

    await a.kv.delete(link);
    assert.equal(await a.kv.get(link), undefined);
    await eventually(values, (v) => v[0] === undefined && v[1] !== undefined);
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      await sql`truncate kv`;
      await eventually(values, (v) => v.every((value) => value === undefined));
    } finally {
      await sql.end();
    }
  });
});
