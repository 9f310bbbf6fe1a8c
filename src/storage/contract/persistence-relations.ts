// Storage contract: the indexes of statuses, edits, edges and idempotency keys are rebuilt
// exactly after close and reopen.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { TimelineEntry } from "../../domain/status.ts";
import { type ContractContext, ids } from "./context.ts";
import { EDGE_KINDS, edgeStoreOf } from "./edges.ts";
import { makeIdempotency, makeStatus, makeStatusEdit } from "./fixtures.ts";

const statusIds = (entries: readonly TimelineEntry[]) => entries.map((e) => e.status_id);

export function relationPersistenceContract(t: ContractContext): void {
  describe("persistence of timelines and relations", () => {
    it("rebuilds timelines, threads and counts from the stored statuses", async () => {
      const statuses = [
        makeStatus({ id: "10", accountId: "1", tags: ["Wren"] }),
        makeStatus({ id: "20", accountId: "2", local: false, mediaIds: ["m"], tags: [] }),
        makeStatus({ id: "30", accountId: "2", inReplyToId: "10", inReplyToAccountId: "1" }),
        makeStatus({
          id: "40",
          accountId: "3",
          reblogOfId: "10",
          tags: [],
          createdAt: "2026-01-03T00:00:00.000Z",
        }),
        makeStatus({ id: "50", accountId: "3", reblogOfId: "20", tags: [], deleted: true }),
        makeStatus({ id: "60", accountId: "1", visibility: "unlisted", conversationId: "10" }),
      ];
      await Promise.all(statuses.map((s) => t.storage.statuses.put(s)));

      const s = (await t.reopen()).statuses;
      for (const status of statuses) assert.deepEqual(await s.get(status.id), status);
      assert.deepEqual(statusIds(await s.listEntriesByAccounts(["1", "2", "3"], { limit: 9 })), [
        "60",
        "40",
        "30",
        "20",
        "10",
      ]);
      assert.deepEqual(statusIds(await s.listPublicEntries({ limit: 9 }, { origin: "all" })), [
        "20",
        "10",
      ]);
      assert.deepEqual(
        statusIds(await s.listPublicEntries({ limit: 9 }, { origin: "remote", onlyMedia: true })),
        ["20"],
      );
      // 30 carries the fixture's default tag; hashtag timelines keep replies.
      assert.deepEqual(statusIds(await s.listTagEntries("WREN", { limit: 9 }, { origin: "all" })), [
        "30",
        "10",
      ]);
      assert.deepEqual(ids(await s.listReplies("10")), ["30"]);
      assert.equal(await s.countReplies("10"), 1);
      assert.equal((await s.findReblog("3", "10"))?.id, "40");
      assert.equal(await s.findReblog("3", "20"), undefined);
      assert.equal(await s.countReblogs("10"), 1);
      assert.equal(await s.countReblogs("20"), 0);
      assert.deepEqual(ids(await s.listByAccount("2", { limit: 9 }, { onlyMedia: true })), ["20"]);
      assert.equal(await s.countByAccount("3"), 1);
      // The batched forms answer what the single ones do, zeros and absences included.
      assert.deepEqual(
        await s.interactionCounts(["10", "20"]),
        new Map([
          ["10", { replies: 1, reblogs: 1 }],
          ["20", { replies: 0, reblogs: 0 }],
        ]),
      );
      const reblogs = await s.findReblogs("3", ["10", "20", "30"]);
      assert.deepEqual(
        [...reblogs].map(([id, reblog]) => [id, reblog.id]),
        [["10", "40"]],
      );
      assert.deepEqual(
        await s.accountFacts(["3", "2", "9"]),
        new Map([
          ["3", { count: 1, lastStatusAt: "2026-01-03T00:00:00.000Z" }],
          ["2", { count: 2, lastStatusAt: (statuses[2] as { createdAt: string }).createdAt }],
          ["9", { count: 0, lastStatusAt: null }],
        ]),
      );
      assert.equal(await s.countLocal(), 4);
    });

    it("keeps edits, edges (replaced and deleted ones too) and idempotency keys", async () => {
      const edits = [
        makeStatusEdit({ id: "2", statusId: "10" }),
        makeStatusEdit({ id: "1", statusId: "10" }),
      ];
      for (const edit of edits) await t.storage.statusEdits.put(edit);
      for (const kind of EDGE_KINDS) {
        const store = edgeStoreOf(t.storage, kind);
        await store.put(kind.make({ id: "100", accountId: "1", targetId: "2" }));
        await store.put(kind.vary(kind.make({ id: "101", accountId: "1", targetId: "2" })));
        await store.put(kind.make({ id: "102", accountId: "1", targetId: "3" }));
        await store.put(kind.make({ id: "103", accountId: "4", targetId: "2" }));
        await store.delete("1", "3");
      }
      const kept = makeIdempotency({ keyHash: "aa", createdAt: "2025-01-01T12:00:00.000Z" });
      await t.storage.idempotency.put(kept);
      await t.storage.idempotency.put(
        makeIdempotency({ keyHash: "bb", createdAt: "2025-01-01T10:00:00.000Z" }),
      );
      assert.equal(await t.storage.idempotency.prune("2025-01-01T11:00:00.000Z"), 1);

      const storage = await t.reopen();
      assert.deepEqual(await storage.statusEdits.listByStatus("10"), [edits[1], edits[0]]);
      for (const kind of EDGE_KINDS) {
        const store = edgeStoreOf(storage, kind);
        const replaced = kind.vary(kind.make({ id: "101", accountId: "1", targetId: "2" }));
        assert.deepEqual(await store.get("1", "2"), replaced, kind.name);
        assert.equal(await store.get("1", "3"), undefined, kind.name);
        assert.deepEqual(ids(await store.listFrom("1", { limit: 9 })), ["101"], kind.name);
        assert.deepEqual(ids(await store.listTo("2", { limit: 9 })), ["103", "101"], kind.name);
        assert.equal(await store.countFrom("1"), 1, kind.name);
        assert.equal(await store.countTo("2"), 2, kind.name);
        assert.deepEqual(await store.allTargetsFrom("4"), ["2"], kind.name);
      }
      assert.deepEqual(await storage.idempotency.get("aa"), kept);
      assert.equal(await storage.idempotency.get("bb"), undefined);
    });
  });
}
