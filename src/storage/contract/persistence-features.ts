// Storage contract: polls, notifications, announcements, emojis, markers, conversations and jobs
// survive close and reopen, with their indexes rebuilt exactly.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ContractContext, ids } from "./context.ts";
import { makeEdge, makeFeaturedTag } from "./fixtures.ts";
import {
  makeAnnouncement,
  makeConversation,
  makeEmoji,
  makeJob,
  makeMarker,
  makeNotification,
  makePoll,
  makePollVote,
  makeReaction,
} from "./fixtures-features.ts";

export function featurePersistenceContract(t: ContractContext): void {
  describe("persistence of polls, notifications and the rest", () => {
    it("keeps polls, votes, announcements, reactions, emojis and markers", async () => {
      const s0 = t.storage;
      const poll = makePoll({ id: "10", votesCount: 1, votersCount: 1 });
      const vote = makePollVote({ id: "11", accountId: "2", targetId: "10", choices: [1] });
      const announcement = makeAnnouncement({ id: "20" });
      const emoji = makeEmoji({ id: "30", shortcode: "wren" });
      const remoteEmoji = makeEmoji({ id: "31", shortcode: "wren", domain: "remote.example" });
      const marker = makeMarker({ accountId: "1", timeline: "notifications", version: 3 });
      await Promise.all([
        s0.polls.put(poll),
        s0.pollVotes.put(vote),
        s0.announcements.put(announcement),
        s0.announcements.put(makeAnnouncement({ id: "21" })),
        s0.announcementDismissals.put(makeEdge({ id: "22", accountId: "1", targetId: "20" })),
        s0.customEmojis.put(emoji),
        s0.customEmojis.put(remoteEmoji),
        s0.markers.put(marker),
      ]);
      await s0.announcements.delete("21");
      await s0.announcementReactions.put(makeReaction({ id: "24", announcementId: "20" }));
      await s0.announcementReactions.put(
        makeReaction({ id: "23", announcementId: "20", accountId: "2" }),
      );

      const s = await t.reopen();
      assert.deepEqual(await s.polls.get("10"), poll);
      assert.deepEqual(await s.pollVotes.get("2", "10"), vote);
      assert.equal(await s.pollVotes.countTo("10"), 1);
      assert.deepEqual(await s.announcements.list(), [announcement]);
      assert.equal((await s.announcementDismissals.get("1", "20"))?.id, "22");
      assert.deepEqual(ids(await s.announcementReactions.listByAnnouncement("20")), ["23", "24"]);
      // Uniqueness is rebuilt too: the same reaction again is not stored twice.
      await s.announcementReactions.put(makeReaction({ id: "25", announcementId: "20" }));
      assert.equal((await s.announcementReactions.listByAnnouncement("20")).length, 2);
      assert.deepEqual(await s.customEmojis.findByShortcode("wren", null), emoji);
      assert.deepEqual(await s.customEmojis.findByShortcode("wren", "remote.example"), remoteEmoji);
      assert.deepEqual(await s.customEmojis.listLocal(), [emoji]);
      assert.deepEqual(await s.markers.get("1", "notifications"), marker);
    });

    it("keeps notifications and conversations with their indexes", async () => {
      const s0 = t.storage;
      const mention = makeNotification({
        id: "10",
        accountId: "1",
        type: "mention",
        statusId: "7",
      });
      await Promise.all([
        s0.notifications.put(mention),
        s0.notifications.put(makeNotification({ id: "11", accountId: "1", type: "follow" })),
        s0.notifications.put(makeNotification({ id: "12", accountId: "2", statusId: "7" })),
        s0.notifications.put(makeNotification({ id: "13", accountId: "1", statusId: "8" })),
        s0.conversations.put(makeConversation({ id: "20", accountId: "1", lastStatusId: "90" })),
        s0.conversations.put(makeConversation({ id: "21", accountId: "1", lastStatusId: "80" })),
      ]);
      await s0.notifications.delete("13");
      await s0.conversations.put(
        makeConversation({ id: "21", accountId: "1", lastStatusId: "95" }),
      );

      const s = await t.reopen();
      assert.deepEqual(ids(await s.notifications.listFor("1", { limit: 20 })), ["11", "10"]);
      assert.deepEqual(await s.notifications.find("1", "mention", "2", "7"), mention);
      assert.equal(await s.notifications.countFor("1", { limit: 20, sinceId: "10" }), 1);
      await s.notifications.deleteByStatus("7");
      assert.deepEqual(ids(await s.notifications.listFor("1", { limit: 20 })), ["11"]);
      assert.deepEqual(await s.notifications.listFor("2", { limit: 20 }), []);
      assert.deepEqual(ids(await s.conversations.listFor("1", { limit: 20 })), ["21", "20"]);
      assert.equal((await s.conversations.find("1", "thread-20"))?.lastStatusId, "90");

      const again = await t.reopen();
      assert.deepEqual(ids(await again.notifications.listFor("1", { limit: 20 })), ["11"]);
    });

    it("keeps followed and featured hashtags keyed by any tag name", async () => {
      const s0 = t.storage;
      // Tag names are the targets: any letters, not only digits like account and status ids.
      const featured = makeFeaturedTag({
        id: "31",
        accountId: "1",
        targetId: "café",
        name: "Café",
      });
      await Promise.all([
        s0.tagFollows.put(makeEdge({ id: "30", accountId: "1", targetId: "日本語" })),
        s0.tagFollows.put(makeEdge({ id: "32", accountId: "2", targetId: "日本語" })),
        s0.featuredTags.put(featured),
      ]);

      const s = await t.reopen();
      assert.deepEqual(ids(await s.tagFollows.listTo("日本語", { limit: 10 })), ["32", "30"]);
      assert.deepEqual(
        [...(await s.tagFollows.findFrom("1", ["日本語", "café"])).keys()],
        ["日本語"],
      );
      assert.deepEqual(await s.featuredTags.get("1", "café"), featured);
      assert.equal(await s.featuredTags.get("1", "日本語"), undefined);
      const kinds = new Map<string, object[]>();
      for await (const { kind, record } of s.dump()) {
        if (kind === "tagFollows" || kind === "featuredTags") {
          kinds.set(kind, [...(kinds.get(kind) ?? []), record]);
        }
      }
      assert.deepEqual(ids((kinds.get("tagFollows") ?? []) as { id: string }[]), ["30", "32"]);
      assert.deepEqual(kinds.get("featuredTags"), [featured]);
    });

    it("keeps waiting and failed jobs in order", async () => {
      const s0 = t.storage;
      await Promise.all([
        s0.jobs.put(makeJob({ id: "10", runAt: "2025-01-01T00:30:00.000Z" })),
        s0.jobs.put(makeJob({ id: "11", runAt: "2025-01-01T00:10:00.000Z" })),
        s0.jobs.put(makeJob({ id: "12", failedAt: "2025-01-01T00:05:00.000Z", lastError: "x" })),
        s0.jobs.put(makeJob({ id: "13", runAt: "2025-01-01T00:20:00.000Z" })),
      ]);
      await s0.jobs.delete("13");

      const s = await t.reopen();
      assert.equal(await s.jobs.nextRunAt(), "2025-01-01T00:10:00.000Z");
      assert.deepEqual(ids(await s.jobs.due("2025-01-01T01:00:00.000Z", 10)), ["11", "10"]);
      assert.deepEqual(ids(await s.jobs.failed(10)), ["12"]);
      assert.equal((await s.jobs.get("12"))?.lastError, "x");
    });
  });
}
