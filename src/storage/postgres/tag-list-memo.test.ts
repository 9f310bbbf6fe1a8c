// Hashtag timelines (and the tags' trend reviews every page reads) kept per process (status-list-memo.ts, ADR 0042), on a real database with two
// processes: a tagged status one writes reaches the other's kept page through the tags' signal of
// migration 0041, and this process's own writes are seen at once. That pages are kept at all, and
// forgotten by tag, is shown by rows written with the triggers off (session_replication_role =
// replica): they send no signal, so a kept page goes on without them until its own tag is named.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeStatus } from "../contract/fixtures.ts";
import type { Storage } from "../ports.ts";
import { connectPostgres } from "./connect.ts";
import { eventually, twoProcessesOnOneDatabase } from "./testing/hooks.ts";

const PAGE = { limit: 20 };
const tagged = async (storage: Storage, tag: string) =>
  (await storage.statuses.listTagEntries(tag, PAGE, { origin: "all" })).map((e) => e.status_id);

/** Waits until `storage`'s page of `tag` holds `n` statuses. */
const untilLength = (storage: Storage, tag: string, n: number) =>
  eventually(
    () => tagged(storage, tag),
    (list) => list.length === n,
  );

describe("postgres hashtag timelines kept across processes", () => {
  const processes = twoProcessesOnOneDatabase(4);

  it("sees another process's tagged post, edit and deletion", async () => {
    const { a, b } = processes;
    assert.deepEqual(await tagged(b, "cats"), []);
    await a.statuses.put(makeStatus({ id: "100", accountId: "1", tags: ["Cats"] }));
    // The writer's own page forgets at once; the other process's once notified.
    assert.deepEqual(await tagged(a, "CATS"), ["100"]);
    await untilLength(b, "cats", 1);

    // An edit moving it to another tag leaves the first tag's pages in both.
    assert.deepEqual(await tagged(a, "dogs"), []);
    await a.statuses.put(makeStatus({ id: "100", accountId: "1", tags: ["dogs"] }));
    assert.deepEqual(await tagged(a, "cats"), []);
    assert.deepEqual(await tagged(a, "dogs"), ["100"]);
    await untilLength(b, "cats", 0);

    assert.equal(await a.statuses.delete("100"), true);
    assert.deepEqual(await tagged(a, "dogs"), []);
    await untilLength(b, "dogs", 0);
  });

  it("keeps a tag's pages until a write names that tag, or any tag may have changed", async () => {
    const { a, b } = processes;
    await a.statuses.put(makeStatus({ id: "200", accountId: "1", tags: ["cats"] }));
    // A later write's signal, once b has it, says every earlier one has arrived (one listening
    // connection, in commit order): the page b reads next is kept, nothing in flight forgets it.
    assert.deepEqual(await tagged(b, "sync"), []);
    await a.statuses.put(makeStatus({ id: "199", accountId: "1", tags: ["sync"] }));
    await untilLength(b, "sync", 1);
    assert.deepEqual(await tagged(b, "cats"), ["200"]);
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      // A row no signal tells of: b goes on answering its kept page.
      await sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`insert into status_tags (tag, status_id, account_id, local, has_media)
          values ('cats', 201, 1, true, false)`;
      });
      assert.deepEqual(await tagged(b, "cats"), ["200"]);
      // Another tag written: its page is forgotten, not this one's.
      assert.deepEqual(await tagged(b, "dogs"), []);
      await a.statuses.put(makeStatus({ id: "202", accountId: "1", tags: ["dogs"] }));
      await untilLength(b, "dogs", 1);
      assert.deepEqual(await tagged(b, "cats"), ["200"]);

      // A tag the signal cannot name (a remote one holding ","): every tag's page goes.
      await a.statuses.put(makeStatus({ id: "203", accountId: "2", local: false, tags: ["a,b"] }));
      await untilLength(b, "cats", 2);

      // As after a truncation.
      await sql`truncate status_tags`;
      await untilLength(b, "cats", 0);
    } finally {
      await sql.end();
    }
  });

  it("keeps a tag's trend review, and sees another process's decision", async () => {
    const { a, b } = processes;
    const key = ["wren", "trendReview", "tag", "cats"];
    const review = async () => (await b.kv.getMany([key]))[0]?.value;
    assert.equal(await review(), undefined);
    await a.kv.set({ key, value: { usable: false }, expiresAt: null });
    await eventually(review, (value) => value !== undefined);
    const sql = connectPostgres({ url: processes.database.url, poolMax: 1 });
    try {
      // Written with no signal: b answers what it keeps.
      await sql.begin(async (tx) => {
        await tx`set local session_replication_role = replica`;
        await tx`update kv set value = '{"usable": true}' where key = ${key}::text[]`;
      });
      assert.deepEqual(await review(), { usable: false });
      await a.kv.set({ key, value: { usable: true, trendable: true }, expiresAt: null });
      await eventually(review, (value) => (value as { trendable?: boolean }).trendable === true);
    } finally {
      await sql.end();
    }
  });
});
