// Storage contract: notifications, listed per recipient newest first with Mastodon's filters.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Notification } from "../../domain/notification.ts";
import type { IdPage, NotificationFilter } from "../ports.ts";
import { type ContractContext, ids, sorted } from "./context.ts";
import { makeNotification } from "./fixtures-features.ts";

export function notificationContract(t: ContractContext): void {
  describe("notifications", () => {
    const store = () => t.storage.notifications;
    const putAll = (notifications: Notification[]) =>
      Promise.all(notifications.map((n) => store().put(n)));
    const list = async (page: IdPage, filter?: NotificationFilter) =>
      ids(await store().listFor("1", page, filter));

    /** Recipient 1: ids 10..60 of mixed types and senders; recipient 2 has one. */
    const sample = () =>
      putAll([
        makeNotification({ id: "10", accountId: "1", type: "follow", fromAccountId: "3" }),
        makeNotification({ id: "20", accountId: "1", type: "favourite", fromAccountId: "3" }),
        makeNotification({ id: "30", accountId: "1", type: "mention", fromAccountId: "4" }),
        makeNotification({ id: "40", accountId: "1", type: "favourite", fromAccountId: "4" }),
        makeNotification({ id: "50", accountId: "1", type: "reblog", fromAccountId: "3" }),
        makeNotification({ id: "60", accountId: "1", type: "mention", fromAccountId: "3" }),
        makeNotification({ id: "35", accountId: "2", type: "mention", fromAccountId: "1" }),
      ]);

    it("round-trips, deletes and answers undefined for unknown ids", async () => {
      const n = makeNotification({ id: "10", accountId: "1", type: "poll", statusId: "7" });
      await store().put(n);
      assert.deepEqual(await store().get("10"), n);
      assert.equal(await store().get("11"), undefined);
      assert.equal(await store().delete("10"), true);
      assert.equal(await store().delete("10"), false);
      assert.equal(await store().get("10"), undefined);
      assert.deepEqual(await store().listFor("1", { limit: 20 }), []);
    });

    it("lists a recipient's notifications newest first, paged by id", async () => {
      await sample();
      assert.deepEqual(await list({ limit: 20 }), ["60", "50", "40", "30", "20", "10"]);
      assert.deepEqual(await list({ limit: 2 }), ["60", "50"]);
      assert.deepEqual(await list({ limit: 2, maxId: "50" }), ["40", "30"]);
      assert.deepEqual(await list({ limit: 2, sinceId: "20" }), ["60", "50"]);
      assert.deepEqual(await list({ limit: 2, minId: "20" }), ["40", "30"]);
      assert.deepEqual(await list({ limit: 20, minId: "30", maxId: "60" }), ["50", "40"]);
      assert.deepEqual(ids(await store().listFor("2", { limit: 20 })), ["35"]);
      assert.deepEqual(await store().listFor("9", { limit: 20 }), []);
    });

    it("filters by types, excluded types and sender, still filling the page", async () => {
      await sample();
      assert.deepEqual(await list({ limit: 20 }, { types: ["mention", "favourite"] }), [
        "60",
        "40",
        "30",
        "20",
      ]);
      assert.deepEqual(await list({ limit: 20 }, { types: [] }), [
        "60",
        "50",
        "40",
        "30",
        "20",
        "10",
      ]);
      assert.deepEqual(await list({ limit: 20 }, { excludeTypes: ["mention", "follow"] }), [
        "50",
        "40",
        "20",
      ]);
      assert.deepEqual(await list({ limit: 20 }, { fromAccountId: "4" }), ["40", "30"]);
      assert.deepEqual(
        await list({ limit: 20 }, { types: ["mention"], excludeTypes: ["mention"] }),
        [],
      );
      assert.deepEqual(
        await list({ limit: 20 }, { types: ["favourite", "mention"], fromAccountId: "3" }),
        ["60", "20"],
      );
      // A page holds `limit` matches, skipping the ones the filter rejects.
      assert.deepEqual(await list({ limit: 2 }, { types: ["favourite", "follow"] }), ["40", "20"]);
      assert.deepEqual(await list({ limit: 2, maxId: "40" }, { excludeTypes: ["mention"] }), [
        "20",
        "10",
      ]);
      assert.deepEqual(await list({ limit: 1, minId: "10" }, { types: ["mention"] }), ["30"]);
    });

    it("finds a notification by recipient, type, sender and status", async () => {
      await putAll([
        makeNotification({ id: "10", accountId: "1", type: "favourite", statusId: "7" }),
        makeNotification({ id: "11", accountId: "1", type: "follow", statusId: null }),
      ]);
      assert.equal((await store().find("1", "favourite", "2", "7"))?.id, "10");
      assert.equal((await store().find("1", "follow", "2", null))?.id, "11");
      assert.equal(await store().find("1", "favourite", "2", "8"), undefined);
      assert.equal(await store().find("1", "favourite", "3", "7"), undefined);
      assert.equal(await store().find("1", "reblog", "2", "7"), undefined);
      assert.equal(await store().find("2", "favourite", "2", "7"), undefined);
      assert.equal(await store().find("1", "follow", "2", "7"), undefined);
      await store().delete("10");
      assert.equal(await store().find("1", "favourite", "2", "7"), undefined);
    });

    it("tells the ones held by the policy from the others, in lists and counts", async () => {
      await sample();
      const held = async (id: string) =>
        store().put({ ...((await store().get(id)) as Notification), filtered: true });
      await held("30");
      await held("60");
      assert.deepEqual(await list({ limit: 20 }), ["60", "50", "40", "30", "20", "10"]);
      assert.deepEqual(await list({ limit: 20 }, { filtered: true }), ["60", "30"]);
      assert.deepEqual(await list({ limit: 3 }, { filtered: false }), ["50", "40", "20"]);
      assert.deepEqual(await list({ limit: 20 }, { filtered: true, fromAccountId: "3" }), ["60"]);
      assert.equal(await store().countFor("1", { limit: 100, filter: { filtered: false } }), 4);
      assert.equal(await store().countFor("1", { limit: 100, filter: { filtered: true } }), 2);
      // Let through again (a request accepted): back among the others.
      await store().put({ ...((await store().get("30")) as Notification), filtered: false });
      assert.deepEqual(await list({ limit: 20 }, { filtered: true }), ["60"]);
      assert.equal((await store().find("1", "mention", "3", "100"))?.id, "60");
    });

    it("counts the notifications above since_id, up to the limit, filtered", async () => {
      await sample();
      assert.equal(await store().countFor("1", { limit: 100 }), 6);
      assert.equal(await store().countFor("1", { limit: 4 }), 4);
      assert.equal(await store().countFor("1", { sinceId: "30", limit: 100 }), 3);
      assert.equal(await store().countFor("1", { sinceId: "60", limit: 100 }), 0);
      assert.equal(await store().countFor("1", { limit: 100, filter: { types: ["mention"] } }), 2);
      assert.equal(
        await store().countFor("1", {
          sinceId: "30",
          limit: 100,
          filter: { excludeTypes: ["reblog"] },
        }),
        2,
      );
      assert.equal(await store().countFor("9", { limit: 100 }), 0);
    });

    it("clears one recipient's notifications only", async () => {
      await sample();
      await store().clear("1");
      assert.deepEqual(await list({ limit: 20 }), []);
      assert.equal(await store().get("60"), undefined);
      assert.equal(await store().find("1", "mention", "3", "100"), undefined);
      assert.deepEqual(ids(await store().listFor("2", { limit: 20 })), ["35"]);
      await store().clear("9");
    });

    it("deletes the notifications about a status, for every recipient", async () => {
      await putAll([
        makeNotification({ id: "10", accountId: "1", type: "favourite", statusId: "7" }),
        makeNotification({ id: "11", accountId: "2", type: "mention", statusId: "7" }),
        makeNotification({ id: "12", accountId: "1", type: "reblog", statusId: "8" }),
        makeNotification({ id: "13", accountId: "1", type: "follow", statusId: null }),
      ]);
      await store().deleteByStatus("7");
      assert.deepEqual(await list({ limit: 20 }), ["13", "12"]);
      assert.deepEqual(await store().listFor("2", { limit: 20 }), []);
      assert.equal(await store().find("1", "favourite", "2", "7"), undefined);
      assert.equal(await store().countFor("1", { limit: 100 }), 2);
      await store().deleteByStatus("404");
    });

    it("tells which statuses some notification is about", async () => {
      await putAll([
        makeNotification({ id: "10", accountId: "1", type: "favourite", statusId: "7" }),
        makeNotification({ id: "11", accountId: "2", type: "mention", statusId: "7" }),
        makeNotification({ id: "12", accountId: "1", type: "status", statusId: "8" }),
        makeNotification({ id: "13", accountId: "1", type: "follow", statusId: null }),
      ]);
      assert.deepEqual(sorted([...(await store().findStatusIds(["7", "8", "9"]))]), ["7", "8"]);
      assert.equal((await store().findStatusIds([])).size, 0);
      await store().deleteByStatus("7");
      assert.deepEqual([...(await store().findStatusIds(["7", "8", "9"]))], ["8"]);
    });

    it("keeps the indexes right when a notification is replaced", async () => {
      await store().put(makeNotification({ id: "10", accountId: "1", statusId: "7" }));
      const changed = makeNotification({ id: "10", accountId: "1", type: "reblog", statusId: "8" });
      await store().put(changed);
      assert.deepEqual(await store().listFor("1", { limit: 20 }), [changed]);
      assert.equal(await store().find("1", "favourite", "2", "7"), undefined);
      assert.equal((await store().find("1", "reblog", "2", "8"))?.id, "10");
      await store().deleteByStatus("7");
      assert.equal((await store().get("10"))?.id, "10");
      await store().deleteByStatus("8");
      assert.equal(await store().get("10"), undefined);
    });
  });
}
