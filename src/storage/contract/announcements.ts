// Storage contract: announcements and their reactions (dismissals are an edge store, checked
// with the other edges).

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AnnouncementReaction } from "../../domain/announcement.ts";
import { type ContractContext, ids } from "./context.ts";
import { makeAnnouncement, makeReaction } from "./fixtures-features.ts";

const names = (reactions: readonly AnnouncementReaction[]) =>
  reactions.map((r) => `${r.accountId}:${r.name}`);

export function announcementContract(t: ContractContext): void {
  describe("announcements", () => {
    const store = () => t.storage.announcements;

    it("round-trips, replaces and deletes announcements", async () => {
      const a = makeAnnouncement({ id: "10", startsAt: "2025-02-01T00:00:00.000Z", allDay: true });
      await store().put(a);
      assert.deepEqual(await store().get("10"), a);
      assert.equal(await store().get("11"), undefined);
      const edited = { ...a, text: "edited", updatedAt: "2025-03-01T00:00:00.000Z" };
      await store().put(edited);
      assert.deepEqual(await store().get("10"), edited);
      assert.deepEqual(await store().list(), [edited]);
      assert.equal(await store().delete("10"), true);
      assert.equal(await store().delete("10"), false);
      assert.equal(await store().get("10"), undefined);
      assert.deepEqual(await store().list(), []);
    });

    it("lists every announcement newest first", async () => {
      await Promise.all(
        ["20", "9", "100", "30"].map((id) => store().put(makeAnnouncement({ id }))),
      );
      assert.deepEqual(ids(await store().list()), ["100", "30", "20", "9"]);
      await store().delete("30");
      assert.deepEqual(ids(await store().list()), ["100", "20", "9"]);
    });
  });

  describe("announcement reactions", () => {
    const store = () => t.storage.announcementReactions;

    it("lists an announcement's reactions in the order they were given", async () => {
      await store().put(makeReaction({ id: "12", announcementId: "1", accountId: "3" }));
      await store().put(makeReaction({ id: "10", announcementId: "1", accountId: "2" }));
      await store().put(makeReaction({ id: "11", announcementId: "1", name: "wren" }));
      await store().put(makeReaction({ id: "13", announcementId: "2" }));
      const listed = await store().listByAnnouncement("1");
      assert.deepEqual(ids(listed), ["10", "11", "12"]);
      assert.deepEqual(listed[1], makeReaction({ id: "11", announcementId: "1", name: "wren" }));
      assert.deepEqual(ids(await store().listByAnnouncement("2")), ["13"]);
      assert.deepEqual(await store().listByAnnouncement("9"), []);
    });

    it("keeps one reaction per announcement, account and name", async () => {
      await store().put(makeReaction({ id: "10", announcementId: "1" }));
      await store().put(makeReaction({ id: "11", announcementId: "1" }));
      await Promise.all(
        ["12", "13", "14"].map((id) => store().put(makeReaction({ id, announcementId: "1" }))),
      );
      // Names match exactly: another emoji, or a shortcode in another case, is another reaction.
      await store().put(makeReaction({ id: "15", announcementId: "1", name: "Wren" }));
      await store().put(makeReaction({ id: "16", announcementId: "1", name: "wren" }));
      await store().put(makeReaction({ id: "17", announcementId: "1", accountId: "2" }));
      assert.deepEqual(names(await store().listByAnnouncement("1")), [
        "1:👍",
        "1:Wren",
        "1:wren",
        "2:👍",
      ]);
      assert.equal((await store().listByAnnouncement("1"))[0]?.id, "10");
    });

    it("deletes one reaction, saying whether there was one", async () => {
      await store().put(makeReaction({ id: "10", announcementId: "1" }));
      await store().put(makeReaction({ id: "11", announcementId: "1", accountId: "2" }));
      assert.equal(await store().delete("1", "1", "wren"), false);
      assert.equal(await store().delete("2", "1", "👍"), false);
      assert.equal(await store().delete("1", "1", "👍"), true);
      assert.equal(await store().delete("1", "1", "👍"), false);
      assert.deepEqual(names(await store().listByAnnouncement("1")), ["2:👍"]);
      // Once removed, the same reaction can be given again.
      await store().put(makeReaction({ id: "12", announcementId: "1" }));
      assert.deepEqual(ids(await store().listByAnnouncement("1")), ["11", "12"]);
    });

    it("removes every reaction to an announcement and nothing else", async () => {
      await store().put(makeReaction({ id: "10", announcementId: "1" }));
      await store().put(makeReaction({ id: "11", announcementId: "1", accountId: "2" }));
      await store().put(makeReaction({ id: "12", announcementId: "2" }));
      await store().deleteByAnnouncement("1");
      assert.deepEqual(await store().listByAnnouncement("1"), []);
      assert.deepEqual(ids(await store().listByAnnouncement("2")), ["12"]);
      await store().put(makeReaction({ id: "13", announcementId: "1" }));
      assert.deepEqual(ids(await store().listByAnnouncement("1")), ["13"]);
      await store().deleteByAnnouncement("9");
    });
  });
}
