// Storage contract: users' lists (members are an edge store, checked with the other edges).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { List } from "../../domain/list.ts";
import { type ContractContext, ids } from "./context.ts";
import { makeEdge } from "./fixtures.ts";

function makeList(fields: Partial<List> & { id: string }): List {
  return {
    accountId: "1",
    title: `list ${fields.id}`,
    repliesPolicy: "list",
    exclusive: false,
    createdAt: "2025-01-02T03:04:05.000Z",
    updatedAt: "2025-01-02T03:04:05.000Z",
    ...fields,
  };
}

export function listContract(t: ContractContext): void {
  describe("lists", () => {
    const store = () => t.storage.lists;

    it("round-trips a list, replaced on put, and removes it", async () => {
      const list = makeList({ id: "10", title: "Friends", repliesPolicy: "followed" });
      await store().put(list);
      assert.deepEqual(await store().get("10"), list);
      const renamed = { ...list, title: "Close friends", exclusive: true };
      await store().put(renamed);
      assert.deepEqual(await store().get("10"), renamed);
      assert.equal(await store().get("11"), undefined);
      assert.equal(await store().get("not-an-id"), undefined);

      assert.equal(await store().delete("10"), true);
      assert.equal(await store().get("10"), undefined);
      assert.equal(await store().delete("10"), false);
      assert.equal(await store().delete("not-an-id"), false);
    });

    it("lists an owner's lists oldest first, apart from other owners', after a reopen", async () => {
      await Promise.all([
        store().put(makeList({ id: "30", accountId: "1" })),
        store().put(makeList({ id: "9", accountId: "1" })),
        store().put(makeList({ id: "20", accountId: "2" })),
        store().put(makeList({ id: "100", accountId: "1" })),
      ]);
      assert.deepEqual(ids(await store().listByAccount("1")), ["9", "30", "100"]);
      assert.deepEqual(ids(await store().listByAccount("2")), ["20"]);
      assert.deepEqual(await store().listByAccount("3"), []);
      assert.deepEqual(await store().listByAccount("x"), []);

      await store().delete("30");
      const s = await t.reopen();
      assert.deepEqual(ids(await s.lists.listByAccount("1")), ["9", "100"]);
      assert.equal((await s.lists.get("9"))?.title, "list 9");
    });

    it("keeps list members apart from other edges, after a reopen", async () => {
      await t.storage.listMembers.put(makeEdge({ id: "40", accountId: "9", targetId: "2" }));
      await t.storage.follows.put({
        ...makeEdge({ id: "41", accountId: "9", targetId: "3" }),
        showReblogs: true,
        notify: false,
        languages: null,
        uri: null,
      });
      const s = await t.reopen();
      assert.deepEqual(await s.listMembers.allTargetsFrom("9"), ["2"]);
      assert.deepEqual(ids(await s.listMembers.listTo("2", { limit: 10 })), ["40"]);
    });
  });
}
