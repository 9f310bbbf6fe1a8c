// A moderator suspends a local account: its followers' servers get an Update of its actor, now
// flagged `suspended` and emptied (Mastodon's SuspendAccountService), and lifting the suspension
// sends its profile again. Once its data is deleted, a Delete of its actor goes to every server
// we know (its followers' and the others); the actor then answers 410, so the recording peers,
// which cache no keys, cannot verify that Delete (real peers verify it with the key they stored):
// only the attempts are checked for it. Suspending a remote follower ends its follow with a
// Reject (Mastodon's SuspendAccountService).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Account } from "../../src/domain/account.ts";
import {
  actOnAccount,
  deleteAccountData,
  OPERATOR,
  undoAction,
} from "../../src/services/accounts/moderate-account.ts";
import { receiveFollow } from "../../src/services/remote/remote-follow.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type RecordingPeer, startRecordingPeer } from "./recording-peer.ts";

describe("suspensions federate", () => {
  let server: TestServer;
  let followers: RecordingPeer;
  let stranger: RecordingPeer;
  let alice: TestUser;
  let bob: Account;
  let dave: Account;

  before(async () => {
    followers = await startRecordingPeer();
    stranger = await startRecordingPeer();
    server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" });
    alice = await createUserWithToken(server, "alice");
    bob = await followers.addAccount(server, "bob");
    dave = await followers.addAccount(server, "dave", { sharedInbox: false });
    // Known here, following nobody: its server still hears of the suspension.
    await stranger.addAccount(server, "erin");
    for (const follower of [bob, dave]) {
      await receiveFollow(server.wren.ctx, follower, alice.account, `${follower.uri}#follow`);
    }
    await server.wren.jobs.runDue();
  });

  after(async () => {
    await server?.close();
    await followers?.close();
    await stranger?.close();
  });

  test("suspending sends the flagged actor to its followers; unsuspending sends it back", async () => {
    const ctx = server.wren.ctx;
    const before = [followers.deliveries.length, stranger.attempts.length] as const;
    await actOnAccount(ctx, OPERATOR, alice.account.id, { type: "suspend" });
    await server.wren.jobs.runDue();
    const suspended = followers.deliveries.slice(before[0]);
    assert.deepEqual(suspended.map((d) => d.path).sort(), ["/inbox", "/users/dave/inbox"]);
    for (const delivery of suspended) {
      assert.equal(delivery.activity.type, "Update");
      assert.equal(delivery.activity.object.id, alice.account.uri);
      assert.equal(delivery.activity.object.suspended, true);
      assert.equal(delivery.activity.object.name, "alice");
    }
    assert.equal(stranger.attempts.length, before[1], "only its followers' servers hear of it");

    const delivered = followers.deliveries.length;
    await undoAction(ctx, OPERATOR, alice.account.id, "unsuspend");
    await server.wren.jobs.runDue();
    const updates = followers.deliveries.slice(delivered);
    assert.deepEqual(updates.map((d) => d.path).sort(), ["/inbox", "/users/dave/inbox"]);
    assert.equal(updates[0]?.activity.type, "Update");
    assert.equal(updates[0]?.activity.object.id, alice.account.uri);
    assert.equal(updates[0]?.activity.object.suspended, undefined);
  });

  test("deleting a suspended account's data sends Delete(actor) to every known server", async () => {
    const ctx = server.wren.ctx;
    const carol = await createUserWithToken(server, "carol");
    for (const follower of [bob, dave]) {
      await receiveFollow(server.wren.ctx, follower, carol.account, `${follower.uri}#follow-c`);
    }
    await actOnAccount(ctx, OPERATOR, carol.account.id, { type: "suspend" });
    await server.wren.jobs.runDue();
    const before = [followers.attempts.length, stranger.attempts.length] as const;
    await deleteAccountData(ctx, OPERATOR, carol.account.id);
    await server.wren.jobs.runDue();
    // Unverifiable, each is knocked twice (both signature kinds): distinct inboxes count.
    const paths = (peer: RecordingPeer, from: number) =>
      [...new Set(peer.attempts.slice(from).map((a) => a.path))].sort();
    // The followers' server also hears of the follows ended with the data (dave by his own
    // inbox); the stranger's, which nobody here links to carol, only of the actor's Delete.
    assert.deepEqual(paths(followers, before[0]), ["/inbox", "/users/dave/inbox"]);
    assert.deepEqual(paths(stranger, before[1]), ["/inbox"]);
  });

  test("suspending a remote follower ends its follow with a Reject to its server", async () => {
    const ctx = server.wren.ctx;
    assert.ok(await ctx.storage.follows.get(bob.id, alice.account.id));
    const delivered = followers.deliveries.length;
    await actOnAccount(ctx, OPERATOR, bob.id, { type: "suspend" });
    await server.wren.jobs.runDue();
    assert.equal(await ctx.storage.follows.get(bob.id, alice.account.id), undefined);
    const rejects = followers.deliveries
      .slice(delivered)
      .filter((d) => d.activity.type === "Reject");
    assert.equal(rejects.length, 1);
    assert.equal(rejects[0]?.activity.actor, alice.account.uri);
    assert.equal(rejects[0]?.activity.object.actor, bob.uri);
    // Not given back: nobody can be made to follow again.
    await undoAction(ctx, OPERATOR, bob.id, "unsuspend");
    assert.equal(await ctx.storage.follows.get(bob.id, alice.account.id), undefined);
  });
});
