// What the storage contract cannot see of the PostgreSQL status, notification and conversation
// stores: ids that cannot be bigints (lookups find nothing instead of failing on the cast), and
// several processes on one database (each opened storage is its own pool, as a process is):
// concurrent puts of one status leave its hashtag rows matching the stored record, and another
// process hears of every write through the tables' triggers.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { makeStatus } from "../contract/fixtures.ts";
import { makeConversation, makeNotification } from "../contract/fixtures-features.ts";
import type { Storage } from "../ports.ts";
import { openPostgresStorage } from "./index.ts";
import { eventually } from "./testing/hooks.ts";
import { createTempDatabase, type TempDatabase } from "./testing/temp-database.ts";

describe("postgres statuses, notifications and conversations", () => {
  let database: TempDatabase;
  let one: Storage;
  let two: Storage;

  before(async () => {
    database = await createTempDatabase();
    one = await openPostgresStorage({ url: database.url, poolMax: 4 });
    two = await openPostgresStorage({ url: database.url, poolMax: 4 });
  });

  after(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  it("finds nothing for ids that are no bigint, without failing", async () => {
    await one.statuses.put(makeStatus({ id: "10", accountId: "1" }));
    for (const odd of ["abc", "010", "99999999999999999999", ""]) {
      assert.equal(await one.statuses.get(odd), undefined, odd);
      assert.deepEqual(await one.statuses.listByAccount(odd, { limit: 5 }), [], odd);
      assert.equal(await one.statuses.countReplies(odd), 0, odd);
      assert.equal(await one.statuses.findReblog(odd, "10"), undefined, odd);
      assert.equal(await one.notifications.get(odd), undefined, odd);
      assert.equal(await one.notifications.find("1", "favourite", "2", odd), undefined, odd);
      assert.equal(await one.conversations.get(odd), undefined, odd);
      assert.equal(await one.polls.get(odd), undefined, odd);
    }
    assert.deepEqual([...(await one.statuses.getMany(["abc", "10", "010"])).keys()], ["10"]);
    assert.deepEqual(
      await one.statuses.interactionCounts(["abc"]),
      new Map([["abc", { replies: 0, reblogs: 0 }]]),
    );
    assert.deepEqual(
      await one.statuses.accountFacts(["x"]),
      new Map([["x", { count: 0, lastStatusAt: null }]]),
    );
  });

  it("keeps a status whose remote text holds U+0000, which jsonb refuses, as U+FFFD", async () => {
    const status = makeStatus({
      id: "15",
      accountId: "1",
      contentHtml: "<p>a\u0000b</p>",
      tags: ["nul\u0000tag"],
      local: false,
    });
    await one.statuses.put(status);
    const stored = await one.statuses.get("15");
    assert.equal(stored?.contentHtml, "<p>a\uFFFDb</p>");
    assert.deepEqual(stored?.tags, ["nul\uFFFDtag"]);
    // A literal backslash-u-0000 typed as text is no NUL and stays as typed.
    const typed = { ...status, contentHtml: "<p>\\u0000</p>" };
    await one.statuses.put(typed);
    assert.deepEqual(await one.statuses.get("15"), { ...typed, tags: ["nul\uFFFDtag"] });
  });

  it("keeps a status's hashtag rows those of the record stored last, across processes", async () => {
    const base = makeStatus({ id: "20", accountId: "1", tags: [] });
    for (let round = 0; round < 20; round++) {
      // Both land; whichever commits last is the stored record.
      await Promise.all([
        one.statuses.put({ ...base, tags: ["Alpha"] }),
        two.statuses.put({ ...base, tags: ["beta"], deleted: round % 3 === 0 }),
      ]);
      const stored = await one.statuses.get("20");
      assert.ok(stored);
      const listed = stored.deleted ? [] : stored.tags.map((t) => t.toLowerCase());
      for (const tag of ["alpha", "beta"]) {
        // Process two may answer from the page it kept until process one's notification arrives
        // (status-list-memo.ts: a notification's trip); rows that do not match the stored record
        // would never come right.
        const expected = listed.includes(tag) ? ["20"] : [];
        const read = async () =>
          (await two.statuses.listTagEntries(tag, { limit: 5 }, { origin: "all" })).map(
            (e) => e.status_id,
          );
        const entries = await eventually(read, (ids) => ids.join() === expected.join()).catch(
          async () => read(),
        );
        assert.deepEqual(
          entries,
          expected,
          `round ${round}, #${tag}, stored ${JSON.stringify(stored.tags)}`,
        );
      }
    }
  });

  it("lets another process hear of every kind of write", async () => {
    const writes: [string, () => Promise<unknown>][] = [
      ["status", () => one.statuses.put(makeStatus({ id: "30", accountId: "1" }))],
      [
        "status edit",
        () =>
          one.statusEdits.put({
            id: "31",
            statusId: "30",
            accountId: "1",
            text: "before",
            contentHtml: "<p>before</p>",
            spoilerText: "",
            sensitive: false,
            mediaIds: [],
            createdAt: "2025-01-02T03:04:05.000Z",
          }),
      ],
      [
        "poll",
        () =>
          one.polls.put({
            id: "32",
            statusId: "30",
            accountId: "1",
            options: [{ title: "yes", votesCount: 0 }],
            multiple: false,
            hideTotals: false,
            expiresAt: null,
            votesCount: 0,
            votersCount: 0,
            closedAt: null,
            createdAt: "2025-01-02T03:04:05.000Z",
          }),
      ],
      ["notification", () => one.notifications.put(makeNotification({ id: "33", accountId: "1" }))],
      ["notification delete", () => one.notifications.delete("33")],
      [
        "conversation",
        () =>
          one.conversations.put(makeConversation({ id: "34", accountId: "1", lastStatusId: "30" })),
      ],
    ];
    for (const [name, write] of writes) {
      const seen = two.version();
      await write();
      // The notification travels between processes: wait for it (a lost one fails here).
      const deadline = Date.now() + 10_000;
      while (two.version() === seen && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.notEqual(two.version(), seen, `${name} was not heard by the other process`);
    }
  });
});
