// Two Wren instances federate for real: a user finds a user of the other server by handle
// (WebFinger over HTTPS) and follows them; an unlocked account accepts at once, a locked one
// shows a follow request that its owner authorizes.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  handle,
  type Instance,
  relationship,
  resolveAccount,
  resolveStatus,
  startAliceAndBob,
  type TestFederation,
  user,
} from "../../helpers/federation.ts";

describe("following across servers", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  before(async () => {
    ({ federation, a, b, alice, bob } = await startAliceAndBob());
    carol = await user(b, "carol");
    await api(b, carol.token, "PATCH", "/api/v1/accounts/update_credentials", { locked: true });
  });
  after(() => federation.close());

  it("finds a remote account by its handle", async () => {
    const remote = await resolveAccount(a, alice.token, handle(b, "bob"));
    assert.equal(remote.acct, `bob@${b.domain}`);
    assert.equal(remote.username, "bob");
    assert.equal(remote.url, `${b.url}/@bob`);
    assert.notEqual(remote.id, bob.account.id, "a record of A, with A's id");
    // The same record afterwards, also through the plain account API.
    const again = await resolveAccount(a, alice.token, handle(b, "bob"));
    assert.equal(again.id, remote.id);
    const shown = await api(a, alice.token, "GET", `/api/v1/accounts/${remote.id}`);
    assert.equal(shown.acct, `bob@${b.domain}`);
  });

  it("finds a remote post by its page URL and by its ActivityPub id", async () => {
    const posted = await api(b, bob.token, "POST", "/api/v1/statuses", { status: "Find me" });
    const byUrl = await resolveStatus(a, alice.token, posted.url);
    assert.equal(byUrl.uri, posted.uri);
    assert.equal(byUrl.account.acct, `bob@${b.domain}`);
    assert.match(byUrl.content, /Find me/);
    const byId = await resolveStatus(a, alice.token, posted.uri);
    assert.equal(byId.id, byUrl.id, "one record of A for the post");
  });

  it("follows an unlocked remote account: requested, then following once it accepts", async () => {
    const remote = await resolveAccount(a, alice.token, handle(b, "bob"));
    const answer = await api(a, alice.token, "POST", `/api/v1/accounts/${remote.id}/follow`);
    assert.equal(answer.following || answer.requested, true);

    await eventually(async () => {
      const rel = await relationship(a, alice.token, remote.id);
      assert.equal(rel.following, true);
      assert.equal(rel.requested, false);
    });
    // Bob's server knows alice as a follower, and tells bob.
    const followers = await api(
      b,
      bob.token,
      "GET",
      `/api/v1/accounts/${bob.account.id}/followers`,
    );
    assert.deepEqual(
      followers.map((f: { acct: string }) => f.acct),
      [`alice@${a.domain}`],
    );
    await eventually(async () => {
      const notes = await api(b, bob.token, "GET", "/api/v1/notifications?types[]=follow");
      assert.equal(notes[0]?.account.acct, `alice@${a.domain}`);
    });
    // A remote follow counts as a local one: bob has a follower, alice follows one account.
    const shownOnB = await api(b, bob.token, "GET", `/api/v1/accounts/${bob.account.id}`);
    assert.equal(shownOnB.followers_count, 1);
    const shownOnA = await api(a, alice.token, "GET", `/api/v1/accounts/${alice.account.id}`);
    assert.equal(shownOnA.following_count, 1);
  });

  it("follows a locked remote account: requested until its owner authorizes", async () => {
    const remote = await resolveAccount(a, alice.token, handle(b, "carol"));
    assert.equal(remote.locked, true);
    const answer = await api(a, alice.token, "POST", `/api/v1/accounts/${remote.id}/follow`);
    assert.equal(answer.following, false);
    assert.equal(answer.requested, true);

    const request = await eventually(async () => {
      const requests = await api(b, carol.token, "GET", "/api/v1/follow_requests");
      assert.equal(requests.length, 1);
      assert.equal(requests[0].acct, `alice@${a.domain}`);
      return requests[0];
    });
    // The notification is written once the request is stored (an event's listener), so it may
    // show a moment after the request does.
    await eventually(async () => {
      const notes = await api(
        b,
        carol.token,
        "GET",
        "/api/v1/notifications?types[]=follow_request",
      );
      assert.equal(notes[0]?.account.acct, `alice@${a.domain}`);
    });
    // Still only requested on alice's side: nothing was accepted yet.
    const pending = await relationship(a, alice.token, remote.id);
    assert.equal(pending.following, false);
    assert.equal(pending.requested, true);

    await api(b, carol.token, "POST", `/api/v1/follow_requests/${request.id}/authorize`);
    await eventually(async () => {
      const rel = await relationship(a, alice.token, remote.id);
      assert.equal(rel.following, true);
      assert.equal(rel.requested, false);
    });
    const followers = await api(
      b,
      carol.token,
      "GET",
      `/api/v1/accounts/${carol.account.id}/followers`,
    );
    assert.deepEqual(
      followers.map((f: { acct: string }) => f.acct),
      [`alice@${a.domain}`],
    );
  });

  it("unfollows: the remote side forgets the follower", async () => {
    const remote = await resolveAccount(a, alice.token, handle(b, "bob"));
    await api(a, alice.token, "POST", `/api/v1/accounts/${remote.id}/unfollow`);
    assert.equal((await relationship(a, alice.token, remote.id)).following, false);
    await eventually(async () => {
      const followers = await api(
        b,
        bob.token,
        "GET",
        `/api/v1/accounts/${bob.account.id}/followers`,
      );
      assert.deepEqual(followers, []);
    });
  });
});
