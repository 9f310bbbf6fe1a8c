// Each notification type, produced by the real endpoints, and taken back when what it announced
// is undone (as Mastodon's notifications go with their favourite, boost, follow or request).

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MINUTE, movableClock } from "../polls/helpers.ts";
import { act, call, callEmpty, type Json, notifications, postStatus, summary } from "./helpers.ts";

describe("notification types", () => {
  const clock = movableClock();
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;

  before(async () => {
    server = await startTestServer({}, { clock });
    [alice, bob, carol, dave] = await createUsers(server, "alice", "bob", "carol", "dave");
  });
  after(() => server.close());

  async function clearAll() {
    for (const user of [alice, bob, carol, dave]) {
      await callEmpty(server, user, "/api/v1/notifications/clear");
    }
  }

  it("mention: each mentioned account, with the status; not the author, not for boosts", async () => {
    await clearAll();
    const status = await postStatus(server, alice, "hello @bob and @carol and @alice");
    const [toBob] = await notifications(server, bob);
    assert.equal(toBob.type, "mention");
    assert.equal(toBob.account.id, alice.account.id);
    assert.equal(toBob.status.id, status.id);
    assert.equal(toBob.group_key, `ungrouped-${toBob.id}`);
    assert.deepEqual(await summary(server, carol), [`mention:alice:${status.id}`]);
    assert.deepEqual(await summary(server, alice), []);
    assert.deepEqual(await summary(server, dave), []);

    // dave boosting it mentions nobody again; alice hears about the boost.
    await act(server, dave, `/api/v1/statuses/${status.id}/reblog`);
    assert.deepEqual(await summary(server, bob), [`mention:alice:${status.id}`]);
    assert.deepEqual(await summary(server, alice), [`reblog:dave:${status.id}`]);
  });

  it("status: followers who asked for notify, for posts they can see, not replies to others", async () => {
    await clearAll();
    await act(server, bob, `/api/v1/accounts/${alice.account.id}/follow`, { notify: true });
    await act(server, carol, `/api/v1/accounts/${alice.account.id}/follow`);
    await clearAll();

    const post = await postStatus(server, alice, "news", { visibility: "private" });
    assert.deepEqual(await summary(server, bob), [`status:alice:${post.id}`]);
    assert.deepEqual(await summary(server, carol), []);

    const ownThread = await postStatus(server, alice, "more", { in_reply_to_id: post.id });
    const daves = await postStatus(server, dave, "dave here");
    await postStatus(server, alice, "a reply to dave", { in_reply_to_id: daves.id });
    await postStatus(server, alice, "secret", { visibility: "direct" });
    assert.deepEqual(await summary(server, bob), [
      `status:alice:${ownThread.id}`,
      `status:alice:${post.id}`,
    ]);

    // Once bob no longer follows, the followers-only post is not shown to him any more.
    await act(server, bob, `/api/v1/accounts/${alice.account.id}/unfollow`);
    assert.deepEqual(await summary(server, bob), [`status:alice:${ownThread.id}`]);
    await act(server, carol, `/api/v1/accounts/${alice.account.id}/unfollow`);
  });

  it("reblog: the original's author, removed when the boost is undone", async () => {
    await clearAll();
    const status = await postStatus(server, alice, "boost me");
    const boost = await act(server, bob, `/api/v1/statuses/${status.id}/reblog`);
    const [n] = await notifications(server, alice);
    assert.equal(n.type, "reblog");
    assert.equal(n.account.id, bob.account.id);
    assert.equal(n.status.id, status.id, "the boosted status, not the boost");
    assert.equal(n.status.reblog, null);
    // Boosting the boost boosts the original: still one notification.
    await act(server, carol, `/api/v1/statuses/${boost.id}/reblog`);
    assert.deepEqual(await summary(server, alice), [
      `reblog:carol:${status.id}`,
      `reblog:bob:${status.id}`,
    ]);
    await act(server, bob, `/api/v1/statuses/${status.id}/unreblog`);
    assert.deepEqual(await summary(server, alice), [`reblog:carol:${status.id}`]);
  });

  it("favourite: the author, once, removed by unfavourite", async () => {
    await clearAll();
    const status = await postStatus(server, alice, "like me");
    await act(server, bob, `/api/v1/statuses/${status.id}/favourite`);
    await act(server, bob, `/api/v1/statuses/${status.id}/favourite`);
    assert.deepEqual(await summary(server, alice), [`favourite:bob:${status.id}`]);
    await act(server, bob, `/api/v1/statuses/${status.id}/unfavourite`);
    assert.deepEqual(await summary(server, alice), []);
  });

  it("follow: the target, removed by unfollow; refollowing announces again", async () => {
    await clearAll();
    await act(server, dave, `/api/v1/accounts/${carol.account.id}/follow`);
    const [n] = await notifications(server, carol);
    assert.equal(n.type, "follow");
    assert.equal(n.account.id, dave.account.id);
    assert.equal("status" in n, false);
    assert.match(n.group_key, /^follow-[0-9]+$/);
    // Changing the follow's options is no new follow.
    await act(server, dave, `/api/v1/accounts/${carol.account.id}/follow`, { reblogs: false });
    assert.deepEqual(await summary(server, carol), ["follow:dave"]);
    await act(server, dave, `/api/v1/accounts/${carol.account.id}/unfollow`);
    assert.deepEqual(await summary(server, carol), []);
    await act(server, dave, `/api/v1/accounts/${carol.account.id}/follow`);
    assert.deepEqual(await summary(server, carol), ["follow:dave"]);
  });

  it("follow_request: a locked target; gone once answered, and accepting adds no follow", async () => {
    await clearAll();
    const [locked] = await createUsers(server, "locked");
    await call(server, "PATCH", "/api/v1/accounts/update_credentials", {
      token: locked.token,
      json: { locked: true },
    });
    await act(server, bob, `/api/v1/accounts/${locked.account.id}/follow`);
    await act(server, carol, `/api/v1/accounts/${locked.account.id}/follow`);
    assert.deepEqual(await summary(server, locked), ["follow_request:carol", "follow_request:bob"]);

    await act(server, locked, `/api/v1/follow_requests/${bob.account.id}/authorize`);
    await act(server, locked, `/api/v1/follow_requests/${carol.account.id}/reject`);
    assert.deepEqual(await summary(server, locked), []);

    // Withdrawing a request (unfollow while pending) takes it back too.
    await act(server, dave, `/api/v1/accounts/${locked.account.id}/follow`);
    assert.deepEqual(await summary(server, locked), ["follow_request:dave"]);
    await act(server, dave, `/api/v1/accounts/${locked.account.id}/unfollow`);
    assert.deepEqual(await summary(server, locked), []);
  });

  it("update: those who boosted or favourited an edited status, once per status", async () => {
    await clearAll();
    const status = await postStatus(server, alice, "first version");
    await act(server, bob, `/api/v1/statuses/${status.id}/reblog`);
    await act(server, carol, `/api/v1/statuses/${status.id}/favourite`);
    await call(server, "PUT", `/api/v1/statuses/${status.id}`, {
      token: alice.token,
      json: { status: "second version" },
    });
    const [toBob] = await notifications(server, bob);
    assert.equal(toBob.type, "update");
    assert.equal(toBob.account.id, alice.account.id);
    assert.equal(toBob.status.id, status.id);
    assert.match(toBob.status.content, /second version/);
    assert.deepEqual(await summary(server, carol), [`update:alice:${status.id}`]);
    assert.deepEqual(await summary(server, dave), []);

    // A second edit replaces the first notification: still one, and the newest.
    await call(server, "PUT", `/api/v1/statuses/${status.id}`, {
      token: alice.token,
      json: { status: "third version" },
    });
    const again: Json[] = await notifications(server, bob);
    assert.equal(again.length, 1);
    assert.ok(BigInt(again[0].id) > BigInt(toBob.id));
  });

  it("poll: the author and every voter when it ends", async () => {
    await clearAll();
    const status = await postStatus(server, alice, "pick one", {
      poll: { options: ["a", "b"], expires_in: 600 },
    });
    await act(server, bob, `/api/v1/polls/${status.poll.id}/votes`, { choices: [0] });
    await act(server, carol, `/api/v1/polls/${status.poll.id}/votes`, { choices: [1] });
    assert.deepEqual(await summary(server, alice), []);

    clock.advance(11 * MINUTE);
    await server.wren.jobs.runDue();
    for (const user of [alice, bob, carol]) {
      const [n] = await notifications(server, user);
      assert.equal(n?.type, "poll", user.account.username);
      assert.equal(n.account.id, alice.account.id, "the poll's author");
      assert.equal(n.status.id, status.id);
      assert.equal(n.status.poll.expired, true);
    }
    assert.deepEqual(await summary(server, dave), []);
  });

  it("deleting a status removes every notification about it", async () => {
    await clearAll();
    const status = await postStatus(server, alice, "short-lived @bob");
    await act(server, carol, `/api/v1/statuses/${status.id}/favourite`);
    await act(server, dave, `/api/v1/statuses/${status.id}/reblog`);
    assert.equal((await notifications(server, alice)).length, 2);
    assert.equal((await notifications(server, bob)).length, 1);
    await call(server, "DELETE", `/api/v1/statuses/${status.id}`, { token: alice.token });
    assert.deepEqual(await summary(server, alice), []);
    assert.deepEqual(await summary(server, bob), []);
    assert.equal(
      (await server.wren.ctx.storage.notifications.listFor(alice.account.id, { limit: 10 })).length,
      0,
      "removed from storage, not just hidden",
    );
  });
});
