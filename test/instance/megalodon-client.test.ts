// megalodon's Mastodon client (Whalebird and other apps) driven against a real Wren over HTTP and
// WebSocket, the way an app uses it: accounts, statuses with media and polls, acting through a
// boost, timelines paged by their Link headers, lists, filters, notifications, markers, search,
// conversations, scheduling a quote and the user stream. The real library, not a copy of its calls.

import assert from "node:assert/strict";
import { createReadStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import generator, { type Entity, type MegalodonInterface } from "megalodon";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { solidPng } from "../helpers/images.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** The `rel` links of a Link header, as megalodon's own parser reads them. */
function linksOf(header: unknown): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of String(header ?? "").split(",")) {
    const match = /<([^>]+)>;\s*rel="([^"]+)"/.exec(part.trim());
    if (match) links[match[2] as string] = match[1] as string;
  }
  return links;
}

describe("megalodon's Mastodon client", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let asAlice: MegalodonInterface;
  let asBob: MegalodonInterface;
  let files: string;
  before(async () => {
    server = await startTestServer();
    [alice, bob] = [
      await createUserWithToken(server, "alice"),
      await createUserWithToken(server, "bob"),
    ];
    asAlice = generator("mastodon", server.url, alice.token);
    asBob = generator("mastodon", server.url, bob.token);
    files = await mkdtemp(join(tmpdir(), "wren-megalodon-"));
    await asBob.followAccount(alice.account.id);
  });
  after(async () => {
    await server.close();
    await rm(files, { recursive: true, force: true });
  });

  it("posts with media and a poll, and reads them back", async () => {
    const path = join(files, "green.png");
    await writeFile(path, await solidPng(40, 30));
    const media = await asAlice.uploadMedia(createReadStream(path), { description: "green" });
    assert.equal(media.status, 200);
    const updated = await asAlice.updateMedia(media.data.id, { description: "very green" });
    assert.equal(updated.data.description, "very green");
    const posted = await asAlice.postStatus("Look #wren", { media_ids: [media.data.id] });
    const status = posted.data as Entity.Status;
    assert.equal(status.media_attachments[0]?.description, "very green");
    assert.deepEqual(
      status.tags.map((t) => t.name),
      ["wren"],
    );

    const poll = (await asAlice.postStatus("Which?", {
      poll: { options: ["a", "b"], expires_in: 3600, multiple: true },
    })) as { data: Entity.Status };
    const pollId = poll.data.poll?.id as string;
    const voted = await asBob.votePoll(pollId, [0, 1]);
    assert.equal(voted.data.voted, true);
    assert.equal((await asBob.getPoll(pollId)).data.votes_count, 2);
  });

  it("favourites and bookmarks a boost by its id, and sees it flagged", async () => {
    const original = (await asAlice.postStatus("Boost me", {})).data as Entity.Status;
    const boost = (await asBob.reblogStatus(original.id)).data;
    const favourited = await asAlice.favouriteStatus(boost.id);
    assert.equal(favourited.data.id, boost.id);
    assert.equal(favourited.data.favourited, true);
    assert.equal(favourited.data.reblog?.favourited, true);
    const bookmarked = await asAlice.bookmarkStatus(boost.id);
    assert.equal(bookmarked.data.bookmarked, true);
    assert.equal((await asAlice.getStatus(original.id)).data.favourited, true);
    const unfavourited = await asAlice.unfavouriteStatus(boost.id);
    assert.equal(unfavourited.data.favourited, false);
    assert.equal(unfavourited.data.reblog?.favourited, false);
  });

  it("pages the home timeline by its Link headers, both ways", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.unshift(((await asAlice.postStatus(`Page ${i}`, {})).data as Entity.Status).id);
    }
    const first = await asBob.getHomeTimeline({ limit: 2 });
    assert.deepEqual(
      first.data.map((s) => s.id),
      ids.slice(0, 2),
    );
    const next = new URL(linksOf(first.headers.link).next as string);
    const second = await asBob.getHomeTimeline({
      limit: 2,
      max_id: next.searchParams.get("max_id") as string,
    });
    assert.deepEqual(
      second.data.map((s) => s.id),
      ids.slice(2, 4),
    );
    const prev = new URL(linksOf(second.headers.link).prev as string);
    const back = await asBob.getHomeTimeline({
      limit: 2,
      min_id: prev.searchParams.get("min_id") as string,
    });
    assert.deepEqual(
      back.data.map((s) => s.id),
      ids.slice(0, 2),
    );
    // Followers with get_all follow `next` until a page ends the walk.
    const followers = await asAlice.getAccountFollowers(alice.account.id, {
      limit: 1,
      get_all: true,
    });
    assert.deepEqual(
      followers.data.map((a) => a.id),
      [bob.account.id],
    );
  });

  it("keeps lists, filters, markers and conversations", async () => {
    const list = (await asBob.createList("Friends")).data;
    await asBob.addAccountsToList(list.id, [alice.account.id]);
    const members = await asBob.getAccountsInList(list.id);
    assert.deepEqual(
      members.data.map((a) => a.id),
      [alice.account.id],
    );
    assert.equal((await asBob.getListTimeline(list.id, { limit: 1 })).data.length, 1);
    await asBob.deleteList(list.id);

    const filter = await asBob.createFilter("spoiler", ["home"], { whole_word: true });
    assert.deepEqual(filter.data.context, ["home"]);
    const changed = await asBob.updateFilter(filter.data.id, "spoilers", ["home", "public"]);
    assert.equal(changed.data.phrase, "spoilers");
    await asBob.deleteFilter(filter.data.id);

    const home = await asBob.getHomeTimeline({ limit: 1 });
    const lastRead = home.data[0]?.id as string;
    await asBob.saveMarkers({ home: { last_read_id: lastRead } });
    const markers = (await asBob.getMarkers(["home"])).data as Entity.Marker;
    assert.equal(markers.home?.last_read_id, lastRead);

    await asAlice.postStatus("@bob between us", { visibility: "direct" });
    const conversations = await asBob.getConversationTimeline({ limit: 5 });
    assert.equal(conversations.data.length, 1);
    const read = await asBob.readConversation(conversations.data[0]?.id as string);
    assert.equal(read.data.unread, false);
  });

  it("reads notifications and searches", async () => {
    const notifications = await asAlice.getNotifications({ exclude_types: ["reblog"] });
    const types = new Set(notifications.data.map((n) => n.type));
    assert.ok(types.has("follow"));
    assert.ok(!types.has("reblog"));
    const one = await asAlice.getNotification(notifications.data[0]?.id as string);
    assert.equal(one.data.id, notifications.data[0]?.id);

    const found = await asBob.search("wren", { type: "hashtags" });
    assert.deepEqual(
      found.data.hashtags.map((t) => t.name),
      ["wren"],
    );
    assert.equal((await asBob.lookupAccount("alice")).data.id, alice.account.id);
  });

  it("schedules a quote, which keeps its quoted status", async () => {
    const quoted = (await asBob.postStatus("Quote me later", {})).data as Entity.Status;
    const at = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    const scheduled = await asAlice.postStatus("Quoting", {
      quote_id: quoted.id,
      scheduled_at: at,
    });
    const params = (scheduled.data as Entity.ScheduledStatus).params as unknown as Record<
      string,
      unknown
    >;
    assert.equal(params.quoted_status_id, quoted.id);
  });

  it("streams the user's home and notifications over WebSocket", async () => {
    const stream = await asBob.userStreaming();
    try {
      await new Promise<void>((resolve, reject) => {
        stream.on("connect", () => resolve());
        stream.on("error", reject);
      });
      const update = new Promise<Entity.Status>((resolve) => stream.on("update", resolve));
      const posted = (await asAlice.postStatus("Live", {})).data as Entity.Status;
      assert.equal((await update).id, posted.id);
      const notification = new Promise<Entity.Notification>((resolve) =>
        stream.on("notification", resolve),
      );
      await asAlice.favouriteStatus(
        ((await asBob.postStatus("Like me", {})).data as Entity.Status).id,
      );
      const received = await notification;
      assert.equal(received.type, "favourite");
      assert.equal(received.account?.id, alice.account.id);
    } finally {
      stream.stop();
    }
  });
});
