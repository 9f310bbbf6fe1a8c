// Storage contract: replies and reblogs of a status, their lists and counts.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ContractContext, ids } from "./context.ts";
import { makeStatus } from "./fixtures.ts";

export function threadContract(t: ContractContext): void {
  describe("statuses: replies and reblogs", () => {
    const reply = (id: string, accountId: string, parent: string, parentAuthor = "1") =>
      makeStatus({ id, accountId, inReplyToId: parent, inReplyToAccountId: parentAuthor });
    const reblog = (id: string, accountId: string, original: string) =>
      makeStatus({ id, accountId, reblogOfId: original, tags: [] });

    it("lists direct replies oldest first and counts them, without deleted ones", async () => {
      const statuses = t.storage.statuses;
      await statuses.put(makeStatus({ id: "10", accountId: "1" }));
      for (const status of [
        reply("30", "2", "10"),
        reply("20", "1", "10"),
        { ...reply("40", "3", "10"), deleted: true },
        reply("50", "2", "11"),
        reply("60", "3", "30", "2"),
      ]) {
        await statuses.put(status);
      }
      assert.deepEqual(ids(await statuses.listReplies("10")), ["20", "30"]);
      assert.equal(await statuses.countReplies("10"), 2);
      assert.deepEqual(ids(await statuses.listReplies("30")), ["60"]);
      assert.deepEqual(await statuses.listReplies("99"), []);
      assert.equal(await statuses.countReplies("99"), 0);

      const removed = await statuses.get("30");
      assert.ok(removed);
      await statuses.put({ ...removed, deleted: true, deletedAt: "2025-06-01T00:00:00.000Z" });
      assert.deepEqual(ids(await statuses.listReplies("10")), ["20"]);
      assert.equal(await statuses.countReplies("10"), 1);
      await statuses.put(removed);
      assert.equal(await statuses.countReplies("10"), 2);
    });

    it("finds, lists (newest first, paged) and counts reblogs, without deleted ones", async () => {
      const statuses = t.storage.statuses;
      await statuses.put(makeStatus({ id: "10", accountId: "1" }));
      await Promise.all(
        [
          reblog("20", "2", "10"),
          reblog("30", "3", "10"),
          { ...reblog("40", "4", "10"), deleted: true },
          reblog("50", "2", "11"),
          reblog("25", "5", "10"),
        ].map((s) => statuses.put(s)),
      );
      assert.equal((await statuses.findReblog("2", "10"))?.id, "20");
      assert.equal((await statuses.findReblog("2", "11"))?.id, "50");
      assert.equal(await statuses.findReblog("4", "10"), undefined, "deleted");
      assert.equal(await statuses.findReblog("3", "11"), undefined);
      assert.equal(await statuses.findReblog("1", "10"), undefined);

      assert.deepEqual(ids(await statuses.listReblogs("10", { limit: 20 })), ["30", "25", "20"]);
      assert.deepEqual(ids(await statuses.listReblogs("10", { limit: 1 })), ["30"]);
      assert.deepEqual(ids(await statuses.listReblogs("10", { limit: 5, maxId: "30" })), [
        "25",
        "20",
      ]);
      assert.deepEqual(ids(await statuses.listReblogs("10", { limit: 1, minId: "20" })), ["25"]);
      assert.equal(await statuses.countReblogs("10"), 3);
      assert.equal(await statuses.countReblogs("11"), 1);
      assert.equal(await statuses.countReblogs("99"), 0);

      // Undoing a reblog flips it to deleted.
      const undone = await statuses.get("20");
      assert.ok(undone);
      await statuses.put({ ...undone, deleted: true });
      assert.equal(await statuses.findReblog("2", "10"), undefined);
      assert.equal(await statuses.countReblogs("10"), 2);
      assert.deepEqual(ids(await statuses.listReblogs("10", { limit: 20 })), ["30", "25"]);
      // Reblogs are the reblogger's statuses too.
      assert.deepEqual(ids(await statuses.listByAccount("2", { limit: 20 })), ["50"]);
    });
  });
}
