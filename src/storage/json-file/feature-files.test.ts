// json-file layout of polls, notifications, announcements, emojis, markers and conversations:
// one pretty-printed file per record where the README says, and gone when removed. (Jobs are
// lines of the job journal: job-store-journal.test.ts.)

import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, it } from "node:test";
import { makeEdge } from "../contract/fixtures.ts";
import {
  makeAnnouncement,
  makeConversation,
  makeEmoji,
  makeMarker,
  makeNotification,
  makePoll,
  makePollVote,
  makeReaction,
} from "../contract/fixtures-features.ts";
import { openJsonFileStorage } from "./index.ts";

const pretty = (record: unknown) => `${JSON.stringify(record, null, 2)}\n`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "wren-json-features-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("keeps the new kinds of record one file each in the documented layout", async () => {
  const storage = await openJsonFileStorage(dir);
  const read = (...path: string[]) => readFile(join(dir, ...path), "utf8");
  const poll = makePoll({ id: "1" });
  const vote = makePollVote({ id: "2", accountId: "5", targetId: "1" });
  const notification = makeNotification({ id: "3", accountId: "5" });
  const announcement = makeAnnouncement({ id: "4" });
  const dismissal = makeEdge({ id: "6", accountId: "5", targetId: "4" });
  const reaction = makeReaction({ id: "7", announcementId: "4" });
  const emoji = makeEmoji({ id: "8" });
  const marker = makeMarker({ accountId: "5", timeline: "notifications" });
  const conversation = makeConversation({ id: "9", accountId: "5", lastStatusId: "50" });
  await Promise.all([
    storage.polls.put(poll),
    storage.pollVotes.put(vote),
    storage.notifications.put(notification),
    storage.announcements.put(announcement),
    storage.announcementDismissals.put(dismissal),
    storage.announcementReactions.put(reaction),
    storage.customEmojis.put(emoji),
    storage.markers.put(marker),
    storage.conversations.put(conversation),
  ]);
  assert.equal(await read("polls", "1.json"), pretty(poll));
  assert.equal(await read("poll-votes", "2.json"), pretty(vote));
  assert.equal(await read("notifications", "5", "3.json"), pretty(notification));
  assert.equal(await read("announcements", "4.json"), pretty(announcement));
  assert.equal(await read("announcement-dismissals", "6.json"), pretty(dismissal));
  assert.equal(await read("announcement-reactions", "7.json"), pretty(reaction));
  assert.equal(await read("custom-emojis", "8.json"), pretty(emoji));
  assert.equal(await read("markers", "5-notifications.json"), pretty(marker));
  assert.equal(await read("conversations", "5", "9.json"), pretty(conversation));

  // A cleared notification leaves no file behind.
  await storage.notifications.clear("5");
  assert.deepEqual(await readdir(join(dir, "notifications", "5")), []);
  await storage.close();
});

it("refuses ids that could leave their folder", async () => {
  const storage = await openJsonFileStorage(dir);
  await assert.rejects(storage.notifications.put(makeNotification({ id: "1", accountId: "../x" })));
  await assert.rejects(storage.customEmojis.put(makeEmoji({ id: "a/b" })));
  assert.equal(await storage.notifications.get("1"), undefined);
  await storage.close();
});
