// Storage contract: direct-message conversations, per account, ordered by their last status.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { IdPage } from "../ports.ts";
import { type ContractContext, ids } from "./context.ts";
import { makeConversation } from "./fixtures-features.ts";

export function conversationContract(t: ContractContext): void {
  describe("conversations", () => {
    const store = () => t.storage.conversations;
    const list = async (page: IdPage) => ids(await store().listFor("1", page));

    it("round-trips, finds by account and thread, deletes", async () => {
      const c = makeConversation({ id: "10", accountId: "1", lastStatusId: "500", unread: true });
      await store().put(c);
      assert.deepEqual(await store().get("10"), c);
      assert.deepEqual(await store().find("1", "thread-10"), c);
      assert.equal(await store().find("2", "thread-10"), undefined);
      assert.equal(await store().find("1", "thread-11"), undefined);
      assert.equal(await store().delete("10"), true);
      assert.equal(await store().delete("10"), false);
      assert.equal(await store().get("10"), undefined);
      assert.equal(await store().find("1", "thread-10"), undefined);
      assert.deepEqual(await store().listFor("1", { limit: 20 }), []);
    });

    it("lists an account's conversations by last status, newest first, paged by it", async () => {
      // Conversation ids deliberately out of step with their last statuses.
      await Promise.all(
        [
          makeConversation({ id: "10", accountId: "1", lastStatusId: "300" }),
          makeConversation({ id: "11", accountId: "1", lastStatusId: "100" }),
          makeConversation({ id: "12", accountId: "1", lastStatusId: "500" }),
          makeConversation({ id: "13", accountId: "1", lastStatusId: "200" }),
          makeConversation({ id: "14", accountId: "1", lastStatusId: "1000" }),
          makeConversation({ id: "15", accountId: "2", lastStatusId: "400" }),
        ].map((c) => store().put(c)),
      );
      assert.deepEqual(await list({ limit: 20 }), ["14", "12", "10", "13", "11"]);
      assert.deepEqual(await list({ limit: 2 }), ["14", "12"]);
      assert.deepEqual(await list({ limit: 2, maxId: "500" }), ["10", "13"]);
      assert.deepEqual(await list({ limit: 2, maxId: "450" }), ["10", "13"]);
      assert.deepEqual(await list({ limit: 2, sinceId: "200" }), ["14", "12"]);
      assert.deepEqual(await list({ limit: 2, minId: "200" }), ["12", "10"]);
      assert.deepEqual(await list({ limit: 20, minId: "100", maxId: "1000" }), ["12", "10", "13"]);
      assert.deepEqual(ids(await store().listFor("2", { limit: 20 })), ["15"]);
      assert.deepEqual(await store().listFor("9", { limit: 20 }), []);
      assert.deepEqual(await list({ limit: 0 }), []);
    });

    it("moves a conversation to the top when its last status changes", async () => {
      await store().put(makeConversation({ id: "10", accountId: "1", lastStatusId: "100" }));
      await store().put(makeConversation({ id: "11", accountId: "1", lastStatusId: "200" }));
      const newer = makeConversation({
        id: "10",
        accountId: "1",
        lastStatusId: "300",
        unread: true,
      });
      await store().put(newer);
      assert.deepEqual(await list({ limit: 20 }), ["10", "11"]);
      assert.deepEqual(await list({ limit: 20, maxId: "300" }), ["11"]);
      assert.deepEqual((await store().listFor("1", { limit: 1 }))[0], newer);
      assert.deepEqual(await store().find("1", "thread-10"), newer);
    });
  });
}
