// Posts travel between two Wren instances: alice (A) follows bob (B); bob's posts reach her home
// timeline; replies build the same thread on both servers; boosts and favourites from A count and
// notify on B; bob's edits, deletions and profile changes reach A's copies.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Json } from "../../graph/helpers.ts";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  followRemote,
  handle,
  type Instance,
  inHomeTimeline,
  startAliceAndBob,
  type TestFederation,
} from "../../helpers/federation.ts";

describe("posts across servers", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let bob: TestUser;
  /** Bob as A knows him. */
  let bobOnA: Json;
  before(async () => {
    ({ federation, a, b, alice, bob } = await startAliceAndBob());
    bobOnA = await followRemote(a, alice, b, bob);
  });
  after(() => federation.close());

  /** Bob posts on B; returns B's status and A's copy once it is in alice's home timeline. */
  async function bobPosts(text: string, extra: Record<string, unknown> = {}) {
    const posted = await api(b, bob.token, "POST", "/api/v1/statuses", { status: text, ...extra });
    const copy = await eventually(() => inHomeTimeline(a, alice.token, posted.uri));
    return { posted, copy };
  }

  it("delivers a post to the follower's home timeline", async () => {
    const { posted, copy } = await bobPosts("Hello from B");
    assert.notEqual(copy.id, posted.id);
    assert.equal(copy.account.id, bobOnA.id);
    assert.equal(copy.account.acct, `bob@${b.domain}`);
    assert.match(copy.content, /Hello from B/);
    assert.equal(copy.visibility, "public");
    assert.equal(copy.url, posted.url);
    // The copy is a status of A like any other: it can be fetched on its own.
    const shown = await api(a, alice.token, "GET", `/api/v1/statuses/${copy.id}`);
    assert.equal(shown.uri, posted.uri);
  });

  it("builds the same thread on both servers from replies across them", async () => {
    const { posted: root, copy: rootOnA } = await bobPosts("What do you think?");
    // Alice answers on A (her app puts bob's handle in, as Mastodon apps do).
    const reply = await api(a, alice.token, "POST", "/api/v1/statuses", {
      status: `@${handle(b, "bob")} I think so`,
      in_reply_to_id: rootOnA.id,
    });
    assert.equal(reply.in_reply_to_account_id, bobOnA.id);
    // B gets alice's reply, as a reply to bob's post.
    const replyOnB = await eventually(async () => {
      const context = await api(b, bob.token, "GET", `/api/v1/statuses/${root.id}/context`);
      const found = context.descendants.find((s: Json) => s.uri === reply.uri);
      assert.ok(found, "alice's reply is in the thread on B");
      return found;
    });
    assert.equal(replyOnB.in_reply_to_id, root.id);
    assert.equal(replyOnB.account.acct, `alice@${a.domain}`);
    // Bob answers alice on B; A, following bob, gets it.
    const answer = await api(b, bob.token, "POST", "/api/v1/statuses", {
      status: `@${handle(a, "alice")} Good`,
      in_reply_to_id: replyOnB.id,
    });
    const threadOn = async (instance: Instance, token: string, id: string) => {
      const context = await api(instance, token, "GET", `/api/v1/statuses/${id}/context`);
      return context.descendants.map((s: Json) => s.uri);
    };
    await eventually(async () => {
      assert.deepEqual(await threadOn(a, alice.token, rootOnA.id), [reply.uri, answer.uri]);
    });
    assert.deepEqual(await threadOn(b, bob.token, root.id), [reply.uri, answer.uri]);
    // Seen from the last reply, both servers give the same ancestors.
    const answerOnA = await eventually(() => inHomeTimeline(a, alice.token, answer.uri));
    const ancestorsOnA = await api(
      a,
      alice.token,
      "GET",
      `/api/v1/statuses/${answerOnA.id}/context`,
    );
    const ancestorsOnB = await api(b, bob.token, "GET", `/api/v1/statuses/${answer.id}/context`);
    const uris = (context: Json) => context.ancestors.map((s: Json) => s.uri);
    assert.deepEqual(uris(ancestorsOnA), [root.uri, reply.uri]);
    assert.deepEqual(uris(ancestorsOnB), [root.uri, reply.uri]);
  });

  it("counts and notifies a boost from the other server", async () => {
    const { posted, copy } = await bobPosts("Boost me");
    await api(a, alice.token, "POST", `/api/v1/statuses/${copy.id}/reblog`);
    await eventually(async () => {
      const origin = await api(b, bob.token, "GET", `/api/v1/statuses/${posted.id}`);
      assert.equal(origin.reblogs_count, 1);
    });
    const by = await api(b, bob.token, "GET", `/api/v1/statuses/${posted.id}/reblogged_by`);
    assert.deepEqual(
      by.map((account: Json) => account.acct),
      [`alice@${a.domain}`],
    );
    await eventually(async () => {
      const notes = await api(b, bob.token, "GET", "/api/v1/notifications?types[]=reblog");
      assert.equal(notes[0]?.status?.id, posted.id);
      assert.equal(notes[0]?.account.acct, `alice@${a.domain}`);
    });
    // Undoing the boost takes the count back.
    await api(a, alice.token, "POST", `/api/v1/statuses/${copy.id}/unreblog`);
    await eventually(async () => {
      const origin = await api(b, bob.token, "GET", `/api/v1/statuses/${posted.id}`);
      assert.equal(origin.reblogs_count, 0);
    });
  });

  it("counts and notifies a favourite from the other server", async () => {
    const { posted, copy } = await bobPosts("Like me");
    const faved = await api(a, alice.token, "POST", `/api/v1/statuses/${copy.id}/favourite`);
    assert.equal(faved.favourited, true);
    await eventually(async () => {
      const origin = await api(b, bob.token, "GET", `/api/v1/statuses/${posted.id}`);
      assert.equal(origin.favourites_count, 1);
    });
    const by = await api(b, bob.token, "GET", `/api/v1/statuses/${posted.id}/favourited_by`);
    assert.deepEqual(
      by.map((account: Json) => account.acct),
      [`alice@${a.domain}`],
    );
    await eventually(async () => {
      const notes = await api(b, bob.token, "GET", "/api/v1/notifications?types[]=favourite");
      assert.equal(notes[0]?.status?.id, posted.id);
      assert.equal(notes[0]?.account.acct, `alice@${a.domain}`);
    });
    await api(a, alice.token, "POST", `/api/v1/statuses/${copy.id}/unfavourite`);
    await eventually(async () => {
      const origin = await api(b, bob.token, "GET", `/api/v1/statuses/${posted.id}`);
      assert.equal(origin.favourites_count, 0);
    });
  });

  it("shows an edit on the remote copy", async () => {
    const { posted, copy } = await bobPosts("Frist post");
    assert.equal(copy.edited_at, null);
    await api(b, bob.token, "PUT", `/api/v1/statuses/${posted.id}`, { status: "First post" });
    const edited = await eventually(async () => {
      const shown = await api(a, alice.token, "GET", `/api/v1/statuses/${copy.id}`);
      assert.match(shown.content, /First post/);
      return shown;
    });
    assert.notEqual(edited.edited_at, null);
    assert.doesNotMatch(edited.content, /Frist/);
    const history = await api(a, alice.token, "GET", `/api/v1/statuses/${copy.id}/history`);
    assert.equal(history.length, 2);
    assert.match(history[0].content, /Frist post/);
  });

  it("removes a deleted post from the other server", async () => {
    const { posted, copy } = await bobPosts("Soon gone");
    await api(b, bob.token, "DELETE", `/api/v1/statuses/${posted.id}`);
    await eventually(async () => {
      const res = await a.request(`/api/v1/statuses/${copy.id}`, { token: alice.token });
      assert.equal(res.status, 404);
    });
    const home = await api(a, alice.token, "GET", "/api/v1/timelines/home");
    assert.equal(
      home.some((s: Json) => s.uri === posted.uri),
      false,
    );
  });

  it("shows a profile update on the other server", async () => {
    await api(b, bob.token, "PATCH", "/api/v1/accounts/update_credentials", {
      display_name: "Bobby Tables",
      note: "Now with a bio",
    });
    await eventually(async () => {
      const shown = await api(a, alice.token, "GET", `/api/v1/accounts/${bobOnA.id}`);
      assert.equal(shown.display_name, "Bobby Tables");
      assert.match(shown.note, /Now with a bio/);
    });
  });
});
