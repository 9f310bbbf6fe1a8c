// Storage contract: Web Push subscriptions, one per access token, listed by account.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ContractContext, sorted } from "./context.ts";
import { makePushSubscription } from "./fixtures-features.ts";

export function pushSubscriptionContract(t: ContractContext): void {
  describe("push subscriptions", () => {
    const store = () => t.storage.pushSubscriptions;

    it("keeps one subscription per token, replaced on put, listed by account", async () => {
      const first = makePushSubscription({ tokenId: "10", accountId: "1" });
      const second = makePushSubscription({ tokenId: "11", accountId: "1", standard: false });
      const other = makePushSubscription({ tokenId: "12", accountId: "2", policy: "none" });
      await Promise.all([first, second, other].map((s) => store().put(s)));
      assert.deepEqual(await store().get("10"), first);
      assert.equal(await store().get("13"), undefined);
      assert.equal(await store().get("not-an-id"), undefined);
      const listed = await store().listByAccount("1");
      assert.deepEqual(sorted(listed.map((s) => s.tokenId)), ["10", "11"]);
      assert.deepEqual(
        listed.find((s) => s.tokenId === "11"),
        second,
      );
      assert.deepEqual(await store().listByAccount("3"), []);

      const renewed = {
        ...first,
        id: "99",
        endpoint: "https://push.example/other",
        alerts: { favourite: true },
      };
      await store().put(renewed);
      assert.deepEqual(await store().get("10"), renewed);
      assert.equal((await store().listByAccount("1")).length, 2);
    });

    it("removes a token's subscription, once, and keeps it across a reopen", async () => {
      const kept = makePushSubscription({ tokenId: "20", accountId: "5" });
      const gone = makePushSubscription({ tokenId: "21", accountId: "5" });
      await store().put(kept);
      await store().put(gone);
      assert.equal(await store().delete("21"), true);
      assert.equal(await store().delete("21"), false);
      assert.equal(await store().delete("not-an-id"), false);
      await t.reopen();
      assert.deepEqual(await store().get("20"), kept);
      assert.equal(await store().get("21"), undefined);
      assert.deepEqual(
        (await store().listByAccount("5")).map((s) => s.tokenId),
        ["20"],
      );
    });
  });
}
