// When no notification is made, as Mastodon's NotifyService decides: one's own actions, blocked
// senders, muted senders (all types when the mute hides notifications, mentions even when it
// does not), muted conversations, lapsed mutes, and never the same notification twice. Also
// which are hidden: those from a suspended account.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  actOnAccount,
  OPERATOR,
  undoAction,
} from "../../src/services/accounts/moderate-account.ts";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MINUTE, movableClock } from "../polls/helpers.ts";
import { act, callEmpty, postStatus, summary } from "./helpers.ts";

describe("notification suppression", () => {
  const clock = movableClock();
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  before(async () => {
    server = await startTestServer({}, { clock });
    [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
  });
  after(() => server.close());

  const accountAction = (from: TestUser, to: TestUser, action: string, json?: unknown) =>
    act(server, from, `/api/v1/accounts/${to.account.id}/${action}`, json);

  async function fresh() {
    for (const user of [alice, bob, carol]) {
      await callEmpty(server, user, "/api/v1/notifications/clear");
    }
  }

  it("never about one's own actions", async () => {
    await fresh();
    const status = await postStatus(server, alice, "talking to myself @alice");
    await act(server, alice, `/api/v1/statuses/${status.id}/favourite`);
    await act(server, alice, `/api/v1/statuses/${status.id}/reblog`);
    assert.deepEqual(await summary(server, alice), []);
  });

  it("nothing from an account the recipient blocks, and earlier ones are hidden", async () => {
    await fresh();
    const status = await postStatus(server, alice, "hi");
    await act(server, carol, `/api/v1/statuses/${status.id}/favourite`);
    assert.deepEqual(await summary(server, alice), [`favourite:carol:${status.id}`]);

    await accountAction(alice, carol, "block");
    await postStatus(server, carol, "hey @alice");
    assert.deepEqual(await summary(server, alice), [], "new mention dropped, old favourite hidden");
    await accountAction(alice, carol, "unblock");
  });

  it("a suspended sender's notifications are hidden, and back when it is restored", async () => {
    await fresh();
    const status = await postStatus(server, alice, "like me");
    await act(server, carol, `/api/v1/statuses/${status.id}/favourite`);
    await accountAction(carol, alice, "follow");
    const before = await summary(server, alice);
    assert.equal(before.length, 2);
    await actOnAccount(server.wren.ctx, OPERATOR, carol.account.id, { type: "suspend" });
    assert.deepEqual(await summary(server, alice), []);
    await undoAction(server.wren.ctx, OPERATOR, carol.account.id, "unsuspend");
    assert.deepEqual(await summary(server, alice), before);
    await accountAction(carol, alice, "unfollow");
  });

  it("a mute that hides notifications silences every type from that account", async () => {
    await fresh();
    const status = await postStatus(server, alice, "muted?");
    await accountAction(alice, bob, "mute"); // notifications default to hidden, as in Mastodon
    await postStatus(server, bob, "@alice hello");
    await act(server, bob, `/api/v1/statuses/${status.id}/favourite`);
    await act(server, bob, `/api/v1/statuses/${status.id}/reblog`);
    await accountAction(bob, alice, "follow");
    assert.deepEqual(await summary(server, alice), []);
    await accountAction(alice, bob, "unmute");
    await accountAction(bob, alice, "unfollow");
  });

  it("a mute that keeps notifications lets mentions and the rest through", async () => {
    await fresh();
    const status = await postStatus(server, alice, "half muted");
    await accountAction(alice, bob, "mute", { notifications: false });
    const mention = await postStatus(server, bob, "@alice hello again");
    await act(server, bob, `/api/v1/statuses/${status.id}/favourite`);
    assert.deepEqual(await summary(server, alice), [
      `favourite:bob:${status.id}`,
      `mention:bob:${mention.id}`,
    ]);
    await accountAction(alice, bob, "unmute");
  });

  it("a timed mute stops silencing when it lapses", async () => {
    await fresh();
    await accountAction(alice, bob, "mute", { duration: 60 });
    await postStatus(server, bob, "@alice during the mute");
    assert.deepEqual(await summary(server, alice), []);
    clock.advance(2 * MINUTE);
    const after = await postStatus(server, bob, "@alice after the mute");
    assert.deepEqual(await summary(server, alice), [`mention:bob:${after.id}`]);
  });

  it("nothing about a muted conversation; other threads still notify", async () => {
    await fresh();
    const thread = await postStatus(server, alice, "a thread");
    const other = await postStatus(server, alice, "another");
    await act(server, alice, `/api/v1/statuses/${thread.id}/mute`);
    await act(server, bob, `/api/v1/statuses/${thread.id}/favourite`);
    await act(server, bob, `/api/v1/statuses/${thread.id}/reblog`);
    await postStatus(server, bob, "@alice replying", { in_reply_to_id: thread.id });
    await act(server, bob, `/api/v1/statuses/${other.id}/favourite`);
    assert.deepEqual(await summary(server, alice), [`favourite:bob:${other.id}`]);

    await act(server, alice, `/api/v1/statuses/${thread.id}/unmute`);
    await act(server, carol, `/api/v1/statuses/${thread.id}/favourite`);
    assert.deepEqual(await summary(server, alice), [
      `favourite:carol:${thread.id}`,
      `favourite:bob:${other.id}`,
    ]);
  });

  it("no duplicates, even for simultaneous requests", async () => {
    await fresh();
    const status = await postStatus(server, alice, "tap tap tap");
    await Promise.all([
      act(server, bob, `/api/v1/statuses/${status.id}/favourite`),
      act(server, bob, `/api/v1/statuses/${status.id}/favourite`),
      act(server, bob, `/api/v1/statuses/${status.id}/reblog`),
      act(server, bob, `/api/v1/statuses/${status.id}/reblog`),
    ]);
    await Promise.all([
      accountAction(carol, alice, "follow"),
      accountAction(carol, alice, "follow"),
    ]);
    const seen = await summary(server, alice);
    assert.equal(seen.length, 3, seen.join(", "));
    assert.deepEqual(
      [...seen].sort(),
      [`favourite:bob:${status.id}`, "follow:carol", `reblog:bob:${status.id}`].sort(),
    );
  });
});
