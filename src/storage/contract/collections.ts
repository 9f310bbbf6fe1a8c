// Storage contract: users' collections of featured accounts, with their items inline.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Collection, CollectionItem } from "../../domain/collection.ts";
import { type ContractContext, ids } from "./context.ts";

const AT = "2026-02-25T11:35:01.394Z";

function item(id: string, accountId: string, state: CollectionItem["state"]): CollectionItem {
  return { id, accountId, state, createdAt: AT };
}

function makeCollection(fields: Partial<Collection> & { id: string }): Collection {
  return {
    accountId: "1",
    name: `collection ${fields.id}`,
    description: "",
    language: null,
    tag: null,
    sensitive: false,
    discoverable: true,
    items: [],
    createdAt: AT,
    updatedAt: AT,
    ...fields,
  };
}

export function collectionContract(t: ContractContext): void {
  describe("collections", () => {
    const store = () => t.storage.collections;

    it("round-trips a collection with its items, replaced on put, and removes it", async () => {
      const collection = makeCollection({
        id: "10",
        name: "Excellent people",
        language: "en",
        tag: "Discovery",
        items: [item("11", "2", "accepted"), item("12", "3", "pending")],
      });
      await store().put(collection);
      assert.deepEqual(await store().get("10"), collection);
      const changed = { ...collection, sensitive: true, items: [item("11", "2", "revoked")] };
      await store().put(changed);
      assert.deepEqual(await store().get("10"), changed);
      assert.equal(await store().get("13"), undefined);
      assert.equal(await store().get("not-an-id"), undefined);

      assert.equal(await store().delete("10"), true);
      assert.equal(await store().get("10"), undefined);
      assert.equal(await store().delete("10"), false);
      assert.equal(await store().delete("not-an-id"), false);
    });

    it("lists an owner's collections newest first, apart from other owners', after a reopen", async () => {
      await Promise.all([
        store().put(makeCollection({ id: "30", accountId: "1" })),
        store().put(makeCollection({ id: "9", accountId: "1" })),
        store().put(makeCollection({ id: "20", accountId: "2" })),
        store().put(makeCollection({ id: "100", accountId: "1" })),
      ]);
      assert.deepEqual(ids(await store().listByAccount("1")), ["100", "30", "9"]);
      assert.deepEqual(ids(await store().listByAccount("2")), ["20"]);
      assert.deepEqual(await store().listByAccount("3"), []);
      assert.deepEqual(await store().listByAccount("x"), []);

      await store().delete("30");
      const s = await t.reopen();
      assert.deepEqual(ids(await s.collections.listByAccount("1")), ["100", "9"]);
      assert.equal((await s.collections.get("9"))?.name, "collection 9");
    });

    it("finds the collections an account is accepted in, newest first, paged by offset", async () => {
      await Promise.all([
        store().put(makeCollection({ id: "40", items: [item("41", "7", "accepted")] })),
        store().put(makeCollection({ id: "50", items: [item("51", "7", "pending")] })),
        store().put(makeCollection({ id: "60", items: [item("61", "7", "revoked")] })),
        store().put(
          makeCollection({
            id: "70",
            accountId: "2",
            items: [item("71", "8", "accepted"), item("72", "7", "accepted")],
          }),
        ),
        store().put(makeCollection({ id: "80", items: [item("81", "8", "accepted")] })),
      ]);
      assert.deepEqual(ids(await store().listFeaturing("7", 0, 10)), ["70", "40"]);
      assert.deepEqual(ids(await store().listFeaturing("7", 1, 10)), ["40"]);
      assert.deepEqual(ids(await store().listFeaturing("7", 0, 1)), ["70"]);
      assert.deepEqual(ids(await store().listFeaturing("8", 0, 10)), ["80", "70"]);
      assert.deepEqual(await store().listFeaturing("9", 0, 10), []);
      assert.deepEqual(await store().listFeaturing("x", 0, 10), []);

      // An item leaving the accepted state, or its collection going, leaves the list.
      const seventy = (await store().get("70")) as Collection;
      await store().put({ ...seventy, items: [item("72", "7", "revoked")] });
      await store().delete("40");
      assert.deepEqual(await store().listFeaturing("7", 0, 10), []);
      const s = await t.reopen();
      assert.deepEqual(ids(await s.collections.listFeaturing("8", 0, 10)), ["80"]);
      assert.deepEqual(await s.collections.listFeaturing("7", 0, 10), []);
    });
  });
}
