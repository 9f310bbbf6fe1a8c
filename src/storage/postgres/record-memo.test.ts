// Memoised records (record-memo.ts): kept until their own table changes, never kept from a load
// that raced a write, frozen; and, on a real database, a write by another process reaches this
// one's memo through the change notification (an account renamed, a token revoked).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeAccount, makeToken } from "../contract/fixtures.ts";
import { createChanges, parseChange } from "./changes.ts";
import { createRecordMemo } from "./record-memo.ts";
import { eventually, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

/** A load that counts its calls and answers `{ n }` with the call's number. */
function countingLoad() {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    load: async () => ({ n: ++calls }),
  };
}

describe("record memo", () => {
  it("keeps a record until its own table changes, whatever else is written", async () => {
    const changes = createChanges();
    const memo = createRecordMemo<{ n: number }>(changes, "accounts");
    const counter = countingLoad();
    assert.deepEqual(await memo.get("1", counter.load), { n: 1 });
    changes.bump("statuses");
    changes.bump("edges");
    assert.deepEqual(await memo.get("1", counter.load), { n: 1 });
    changes.bumpTable("accounts");
    assert.deepEqual(await memo.get("1", counter.load), { n: 2 });
    // Missed notifications count for every table.
    changes.bumpAll();
    assert.deepEqual(await memo.get("1", counter.load), { n: 3 });
    assert.equal(counter.calls, 3);
  });

  it("does not keep what a load read while the table was written", async () => {
    const changes = createChanges();
    const memo = createRecordMemo<{ n: number }>(changes, "users");
    const counter = countingLoad();
    const racing = memo.get("1", async () => {
      const record = await counter.load();
      changes.bump("users");
      return record;
    });
    assert.deepEqual(await racing, { n: 1 });
    assert.deepEqual(await memo.get("1", counter.load), { n: 2 });
    assert.deepEqual(await memo.get("1", counter.load), { n: 2 });
  });

  it("asks only for the keys it does not keep, and freezes what it keeps", async () => {
    const changes = createChanges();
    const memo = createRecordMemo<{ id: string; tags: string[] }>(changes, "accounts");
    const asked: string[][] = [];
    const load = async (missing: string[]) => {
      asked.push(missing);
      return new Map(missing.filter((k) => k !== "9").map((k) => [k, { id: k, tags: [k] }]));
    };
    await memo.getMany(["1", "2"], load);
    const found = await memo.getMany(["2", "3", "9", "1"], load);
    assert.deepEqual(asked, [
      ["1", "2"],
      ["3", "9"],
    ]);
    // That "9" has no record is kept too, until the table changes.
    await memo.getMany(["9", "1"], load);
    assert.equal(asked.length, 2);
    assert.equal(await memo.get("9", async () => assert.fail("asked again")), undefined);
    changes.bump("accounts");
    await memo.getMany(["9"], load);
    assert.deepEqual(asked.at(-1), ["9"]);
    assert.deepEqual([...found.keys()], ["2", "3", "1"]);
    assert.throws(() => found.get("2")?.tags.push("x"), TypeError);
  });

  it("reads the writer and the table off a notification, old payloads included", () => {
    assert.deepEqual(parseChange("wren-1|accounts"), { writer: "wren-1", table: "accounts" });
    assert.deepEqual(parseChange("wren-1"), { writer: "wren-1", table: undefined });
  });
});

describe("postgres record memos across processes", () => {
  const processes = twoProcessesOnOneDatabase(4);

  it("sees its own writes at once and another process's once notified", async () => {
    await processes.a.accounts.put(makeAccount({ id: "1", displayName: "Before" }));
    assert.equal((await processes.b.accounts.get("1"))?.displayName, "Before");
    assert.equal((await processes.b.accounts.getMany(["1"])).get("1")?.displayName, "Before");
    await processes.a.accounts.put(makeAccount({ id: "1", displayName: "After" }));
    assert.equal((await processes.a.accounts.get("1"))?.displayName, "After");
    await eventually(
      () => processes.b.accounts.get("1"),
      (a) => a?.displayName === "After",
    );
    assert.equal((await processes.b.accounts.getMany(["1"])).get("1")?.displayName, "After");
  });

  it("lets a token revoked through one process stop working in the other", async () => {
    const token = makeToken({ id: "5", tokenHash: "hash-5", accountId: "1" });
    await processes.a.tokens.put(token);
    assert.equal((await processes.b.tokens.findByTokenHash("hash-5"))?.revokedAt ?? null, null);
    const revokedAt = "2026-11-26T08:00:00.000Z";
    await processes.a.tokens.put({ ...token, revokedAt });
    await eventually(
      () => processes.b.tokens.findByTokenHash("hash-5"),
      (t) => t?.revokedAt === revokedAt,
    );
  });
});
