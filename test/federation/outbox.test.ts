// The outbox bridge over real HTTP: a Wren instance and a loopback peer whose inboxes verify
// every HTTP signature (fetching the key from Wren) and record what arrives. Each test acts
// through the client API (or, for what a peer does, through the services the inbox uses),
// runs the due jobs, and checks exactly what the peer received.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Account } from "../../src/domain/account.ts";
import type { Poll } from "../../src/domain/poll.ts";
import { blockDomain, unblockDomain } from "../../src/services/domain-blocks/domain-blocks.ts";
import { favouriteStatus } from "../../src/services/interactions/favourite.ts";
import { votePoll } from "../../src/services/polls/vote.ts";
import { acceptRemoteFollow, receiveFollow } from "../../src/services/remote/remote-follow.ts";
import { call, type Json } from "../graph/helpers.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { statusRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MINUTE, movableClock } from "../polls/helpers.ts";
import { type Delivery, type RecordingPeer, startRecordingPeer } from "./recording-peer.ts";

const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

/** JSON-LD compaction turns one-element arrays into scalars: compare as lists. */
function list(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.map((v) => (typeof v === "string" ? v : (v as Json).id)).map(expandPublic);
}

function expandPublic(id: string): string {
  return id === "as:Public" || id === "Public" ? PUBLIC : id;
}

function idOf(value: Json): string {
  return typeof value === "string" ? value : value.id;
}

/** Every delivery is signed by a key of the activity's actor. */
function assertSignedByActor(delivery: Delivery): void {
  const actor = idOf(delivery.activity.actor);
  assert.equal(delivery.owner, actor, `${delivery.activity.type} signed by ${delivery.keyId}`);
  assert.ok(delivery.keyId.startsWith(actor), delivery.keyId);
}

describe("outbox bridge: local acts reach peers, signed", () => {
  let server: TestServer;
  let peer: RecordingPeer;
  let alice: TestUser;
  let bob: Account;
  let carol: Account;
  let dave: Account;

  before(async () => {
    peer = await startRecordingPeer();
    server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" });
    alice = await createUserWithToken(server, "alice");
    // bob and carol share the peer's shared inbox; dave has only a personal one.
    bob = await peer.addAccount(server, "bob");
    carol = await peer.addAccount(server, "carol");
    dave = await peer.addAccount(server, "dave", { sharedInbox: false });
    for (const follower of [bob, carol, dave]) {
      await receiveFollow(server.wren.ctx, follower, alice.account, `${follower.uri}#follow`);
    }
    await server.wren.jobs.runDue();
  });

  after(async () => {
    await server?.close();
    await peer?.close();
  });

  /** Runs `action`, then every due job, and returns what the peer received meanwhile. */
  async function act<T>(action: () => Promise<T>): Promise<{ result: T; got: Delivery[] }> {
    const before = peer.deliveries.length;
    const result = await action();
    await server.wren.jobs.runDue();
    const got = peer.deliveries.slice(before);
    for (const delivery of got) assertSignedByActor(delivery);
    return { result, got };
  }

  function post(params: Record<string, unknown>) {
    return act(async () => {
      const res = await call(server, "POST", "/api/v1/statuses", alice.token, params);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as Json;
    });
  }

  function paths(got: Delivery[]): string[] {
    return got.map((d) => d.path).sort();
  }

  async function remoteStatus(author: Account, extra: Record<string, unknown> = {}) {
    const status = statusRecord(server, author, { visibility: "public", ...extra });
    const stored = { ...status, uri: `${author.uri}/statuses/${status.id}`, url: status.uri };
    await server.wren.ctx.storage.statuses.put(stored);
    return stored;
  }

  test("the accepts of the peer's follows went out first", () => {
    const accepts = peer.deliveries.filter((d) => d.activity.type === "Accept");
    assert.equal(accepts.length, 3);
    for (const follower of [bob, carol, dave]) {
      const accept = accepts.find((d) => idOf(d.activity.object.actor) === follower.uri);
      assert.ok(accept, `Accept for ${follower.username}`);
      assert.equal(idOf(accept.activity.actor), alice.account.uri);
      assert.equal(accept.activity.object.type, "Follow");
      assert.equal(accept.activity.object.id, `${follower.uri}#follow`);
      assert.equal(idOf(accept.activity.object.object), alice.account.uri);
    }
    // dave has no shared inbox: his Accept went to his own inbox.
    const toDave = accepts.find((d) => idOf(d.activity.object.actor) === dave.uri);
    assert.equal(toDave?.path, "/users/dave/inbox");
  });

  test("a public post: one Create per inbox (shared preferred), to Public, cc followers", async () => {
    const { result: status, got } = await post({ status: "hello fediverse" });
    assert.deepEqual(paths(got), ["/inbox", "/users/dave/inbox"]);
    for (const { activity } of got) {
      assert.equal(activity.type, "Create");
      assert.equal(activity.id, `${status.uri}/activity`);
      assert.equal(idOf(activity.actor), alice.account.uri);
      assert.deepEqual(list(activity.to), [PUBLIC]);
      assert.deepEqual(list(activity.cc), [`${alice.account.uri}/followers`]);
      assert.equal(activity.object.type, "Note");
      assert.equal(activity.object.id, status.uri);
      assert.match(activity.object.content, /hello fediverse/);
    }
  });

  test("unlisted: to followers, cc Public; private: followers only", async () => {
    const unlisted = await post({ status: "quietly", visibility: "unlisted" });
    assert.deepEqual(paths(unlisted.got), ["/inbox", "/users/dave/inbox"]);
    const [u] = unlisted.got;
    assert.deepEqual(list(u?.activity.to), [`${alice.account.uri}/followers`]);
    assert.deepEqual(list(u?.activity.cc), [PUBLIC]);

    const priv = await post({ status: "followers only", visibility: "private" });
    assert.deepEqual(paths(priv.got), ["/inbox", "/users/dave/inbox"]);
    const [p] = priv.got;
    assert.deepEqual(list(p?.activity.to), [`${alice.account.uri}/followers`]);
    assert.deepEqual(list(p?.activity.cc), []);
    assert.equal(JSON.stringify(p?.activity).includes("#Public"), false);
  });

  test("direct: only the mentioned account receives it", async () => {
    const { got } = await post({ status: `@dave@${peer.host} psst`, visibility: "direct" });
    assert.deepEqual(paths(got), ["/users/dave/inbox"]);
    const [d] = got;
    assert.deepEqual(list(d?.activity.to), [dave.uri]);
    assert.deepEqual(list(d?.activity.cc), []);
  });

  test("a public reply also reaches the replied-to author, who does not follow", async () => {
    const other = await startRecordingPeer();
    try {
      const olga = await other.addAccount(server, "olga");
      const theirs = await remoteStatus(olga);
      const before = other.deliveries.length;
      const { result: reply, got } = await post({
        status: "good point",
        in_reply_to_id: theirs.id,
      });
      await server.wren.jobs.runDue();
      assert.deepEqual(paths(got), ["/inbox", "/users/dave/inbox"]);
      const toOlga = other.deliveries.slice(before);
      assert.deepEqual(
        toOlga.map((d) => d.activity.type),
        ["Create"],
      );
      assertSignedByActor(toOlga[0] as Delivery);
      assert.equal(toOlga[0]?.activity.object.id, reply.uri);
      assert.equal(idOf(toOlga[0]?.activity.object.inReplyTo), theirs.uri);
    } finally {
      await other.close();
    }
  });

  test("an edit sends Update with `updated`; a deletion sends Delete(Tombstone)", async () => {
    const { result: status } = await post({ status: "first draft" });
    const edit = await act(() =>
      call(server, "PUT", `/api/v1/statuses/${status.id}`, alice.token, { status: "second draft" }),
    );
    assert.equal(edit.result.status, 200);
    assert.deepEqual(paths(edit.got), ["/inbox", "/users/dave/inbox"]);
    const update = edit.got[0]?.activity;
    assert.equal(update.type, "Update");
    assert.equal(update.object.id, status.uri);
    assert.match(update.object.content, /second draft/);
    assert.ok(update.object.updated, "the edited Note carries `updated`");
    assert.notEqual(update.id, `${status.uri}/activity`);

    const deletion = await act(() =>
      call(server, "DELETE", `/api/v1/statuses/${status.id}`, alice.token),
    );
    assert.equal(deletion.result.status, 200);
    assert.deepEqual(paths(deletion.got), ["/inbox", "/users/dave/inbox"]);
    const del = deletion.got[0]?.activity;
    assert.equal(del.type, "Delete");
    assert.equal(idOf(del.actor), alice.account.uri);
    assert.equal(del.object.type, "Tombstone");
    assert.equal(del.object.id, status.uri);
    assert.deepEqual(list(del.to), [PUBLIC]);
  });

  test("boosting a remote status sends Announce; unboosting sends Undo(Announce)", async () => {
    const original = await remoteStatus(bob);
    const boost = await act(() =>
      call(server, "POST", `/api/v1/statuses/${original.id}/reblog`, alice.token),
    );
    assert.equal(boost.result.status, 200, JSON.stringify(boost.result.body));
    // The followers' shared inbox (which is also bob's) and dave's inbox.
    assert.deepEqual(paths(boost.got), ["/inbox", "/users/dave/inbox"]);
    const announce = boost.got[0]?.activity;
    assert.equal(announce.type, "Announce");
    assert.equal(announce.id, boost.result.body.uri);
    assert.equal(idOf(announce.object), original.uri);
    assert.ok(list(announce.cc).includes(bob.uri), "the boosted author is in cc");

    const unboost = await act(() =>
      call(server, "POST", `/api/v1/statuses/${original.id}/unreblog`, alice.token),
    );
    assert.deepEqual(paths(unboost.got), ["/inbox", "/users/dave/inbox"]);
    const undo = unboost.got[0]?.activity;
    assert.equal(undo.type, "Undo");
    assert.equal(undo.object.type, "Announce");
    assert.equal(undo.object.id, announce.id);
    assert.notEqual(undo.id, announce.id);
  });

  test("favouriting a remote status sends Like to its author only; then Undo(Like)", async () => {
    const original = await remoteStatus(bob);
    const fav = await act(() =>
      call(server, "POST", `/api/v1/statuses/${original.id}/favourite`, alice.token),
    );
    assert.equal(fav.result.status, 200);
    assert.deepEqual(paths(fav.got), ["/inbox"]);
    const like = fav.got[0]?.activity;
    assert.equal(like.type, "Like");
    assert.equal(idOf(like.object), original.uri);
    assert.ok(like.id.startsWith(`${alice.account.uri}#likes/`), like.id);

    const unfav = await act(() =>
      call(server, "POST", `/api/v1/statuses/${original.id}/unfavourite`, alice.token),
    );
    assert.deepEqual(paths(unfav.got), ["/inbox"]);
    const undo = unfav.got[0]?.activity;
    assert.equal(undo.type, "Undo");
    assert.equal(undo.object.type, "Like");
    assert.equal(undo.object.id, like.id);
  });

  test("following a remote account sends Follow and shows requested; unfollowing, Undo", async () => {
    const erin = await peer.addAccount(server, "erin");
    const follow = await act(() =>
      call(server, "POST", `/api/v1/accounts/${erin.id}/follow`, alice.token),
    );
    assert.equal(follow.result.status, 200);
    assert.equal(follow.result.body.requested, true);
    assert.equal(follow.result.body.following, false);
    assert.deepEqual(paths(follow.got), ["/inbox"]);
    const sent = follow.got[0]?.activity;
    assert.equal(sent.type, "Follow");
    assert.ok(sent.id.startsWith(`${server.url}/follows/`), sent.id);
    assert.equal(idOf(sent.object), erin.uri);
    const rel = await call(
      server,
      "GET",
      `/api/v1/accounts/relationships?id[]=${erin.id}`,
      alice.token,
    );
    assert.equal(rel.body[0].requested, true);

    const unfollow = await act(() =>
      call(server, "POST", `/api/v1/accounts/${erin.id}/unfollow`, alice.token),
    );
    const undo = unfollow.got[0]?.activity;
    assert.equal(unfollow.got.length, 1);
    assert.equal(undo.type, "Undo");
    assert.equal(undo.object.type, "Follow");
    assert.equal(undo.object.id, sent.id);
  });

  test("a locked account answers remote requests with Accept or Reject", async () => {
    const lena = await createUserWithToken(server, "lena");
    await call(server, "PATCH", "/api/v1/accounts/update_credentials", lena.token, {
      locked: true,
    });
    const locked = await server.wren.ctx.storage.accounts.get(lena.account.id);
    assert.equal(locked?.locked, true);
    const grace = await peer.addAccount(server, "grace");
    const hank = await peer.addAccount(server, "hank");
    const requested = await act(async () => {
      await receiveFollow(server.wren.ctx, grace, locked, `${grace.uri}#follow`);
      await receiveFollow(server.wren.ctx, hank, locked, `${hank.uri}#follow`);
    });
    assert.deepEqual(requested.got, [], "nothing is answered while the requests wait");

    const authorized = await act(() =>
      call(server, "POST", `/api/v1/follow_requests/${grace.id}/authorize`, lena.token),
    );
    assert.equal(authorized.got.length, 1);
    const accept = authorized.got[0]?.activity;
    assert.equal(accept.type, "Accept");
    assert.equal(accept.object.id, `${grace.uri}#follow`);

    const rejected = await act(() =>
      call(server, "POST", `/api/v1/follow_requests/${hank.id}/reject`, lena.token),
    );
    assert.equal(rejected.got.length, 1);
    const reject = rejected.got[0]?.activity;
    assert.equal(reject.type, "Reject");
    assert.equal(idOf(reject.actor), lena.account.uri);
    assert.equal(reject.object.id, `${hank.uri}#follow`);
    assert.equal(idOf(reject.object.actor), hank.uri);

    const removed = await act(() =>
      call(server, "POST", `/api/v1/accounts/${grace.id}/remove_from_followers`, lena.token),
    );
    assert.equal(removed.got.length, 1);
    assert.equal(removed.got[0]?.activity.type, "Reject");
    assert.equal(removed.got[0]?.activity.object.id, `${grace.uri}#follow`);
  });

  test("blocking sends Block alone (no Reject besides); unblocking, Undo(Block)", async () => {
    const ivan = await peer.addAccount(server, "ivan");
    await act(() => receiveFollow(server.wren.ctx, ivan, alice.account, `${ivan.uri}#follow`));
    const blocked = await act(() =>
      call(server, "POST", `/api/v1/accounts/${ivan.id}/block`, alice.token),
    );
    assert.deepEqual(
      blocked.got.map((d) => d.activity.type),
      ["Block"],
    );
    const block = blocked.got[0]?.activity;
    assert.equal(idOf(block.object), ivan.uri);
    assert.ok(block.id.startsWith(`${alice.account.uri}#blocks/`), block.id);

    const unblocked = await act(() =>
      call(server, "POST", `/api/v1/accounts/${ivan.id}/unblock`, alice.token),
    );
    assert.equal(unblocked.got.length, 1);
    assert.equal(unblocked.got[0]?.activity.type, "Undo");
    assert.equal(unblocked.got[0]?.activity.object.id, block.id);
  });

  test("a user's block of a server sends Undo(Follow) for their follows, Reject for its followers", async () => {
    const mira = await createUserWithToken(server, "mira");
    const nora = await peer.addAccount(server, "nora");
    const oscar = await peer.addAccount(server, "oscar");
    const followed = await act(() =>
      call(server, "POST", `/api/v1/accounts/${nora.id}/follow`, mira.token),
    );
    const sent = followed.got[0]?.activity;
    assert.equal(sent.type, "Follow");
    await acceptRemoteFollow(server.wren.ctx, nora, sent.id, null);
    await act(() => receiveFollow(server.wren.ctx, oscar, mira.account, `${oscar.uri}#follow`));
    const rel = await call(
      server,
      "GET",
      `/api/v1/accounts/relationships?id[]=${nora.id}&id[]=${oscar.id}`,
      mira.token,
    );
    assert.deepEqual(
      rel.body.map((r: Json) => [r.following, r.followed_by]),
      [
        [true, false],
        [false, true],
      ],
    );

    const blocked = await act(() =>
      call(server, "POST", "/api/v1/domain_blocks", mira.token, { domain: peer.host }),
    );
    assert.equal(blocked.result.status, 200);
    const byType = new Map(blocked.got.map((d) => [d.activity.type, d.activity]));
    assert.deepEqual([...byType.keys()].sort(), ["Reject", "Undo"]);
    assert.equal(blocked.got.length, 2);
    const undo = byType.get("Undo");
    assert.equal(idOf(undo.actor), mira.account.uri);
    assert.equal(undo.object.type, "Follow");
    assert.equal(undo.object.id, sent.id);
    const reject = byType.get("Reject");
    assert.equal(idOf(reject.actor), mira.account.uri);
    assert.equal(reject.object.id, `${oscar.uri}#follow`);
    assert.equal(idOf(reject.object.actor), oscar.uri);
    // Blocking the same server again sends nothing more.
    const again = await act(() =>
      call(server, "POST", "/api/v1/domain_blocks", mira.token, { domain: peer.host }),
    );
    assert.deepEqual(again.got, []);
  });

  test("a profile change sends Update(Person) to the followers' inboxes", async () => {
    const { result, got } = await act(() =>
      call(server, "PATCH", "/api/v1/accounts/update_credentials", alice.token, {
        display_name: "Alice in Wrenland",
      }),
    );
    assert.equal(result.status, 200);
    assert.deepEqual(paths(got), ["/inbox", "/users/dave/inbox"]);
    const update = got[0]?.activity;
    assert.equal(update.type, "Update");
    assert.equal(update.object.type, "Person");
    assert.equal(update.object.id, alice.account.uri);
    assert.equal(update.object.name, "Alice in Wrenland");
    assert.deepEqual(list(update.to), [PUBLIC]);
  });

  test("a vote in a remote poll: one Create(Note{name}) to the poll's author only", async () => {
    const ctx = server.wren.ctx;
    const question = await remoteStatus(carol);
    const poll: Poll = {
      id: ctx.ids.next(),
      statusId: question.id,
      accountId: carol.id,
      options: [
        { title: "tea", votesCount: 0 },
        { title: "coffee", votesCount: 0 },
      ],
      multiple: false,
      hideTotals: false,
      expiresAt: new Date(ctx.clock.now().getTime() + 3600_000).toISOString(),
      votesCount: 0,
      votersCount: 0,
      closedAt: null,
      createdAt: ctx.clock.now().toISOString(),
    };
    await ctx.storage.polls.put(poll);
    await ctx.storage.statuses.put({ ...question, pollId: poll.id });

    const { result, got } = await act(() =>
      call(server, "POST", `/api/v1/polls/${poll.id}/votes`, alice.token, { choices: [1] }),
    );
    assert.equal(result.status, 200, JSON.stringify(result.body));
    assert.deepEqual(paths(got), ["/inbox"]);
    const create = got[0]?.activity;
    assert.equal(create.type, "Create");
    assert.deepEqual(list(create.to), [carol.uri]);
    assert.deepEqual(list(create.cc), []);
    assert.equal(create.object.type, "Note");
    assert.equal(create.object.name, "coffee");
    assert.equal(idOf(create.object.inReplyTo), question.uri);
    assert.equal(idOf(create.object.attributedTo), alice.account.uri);
    assert.deepEqual(list(create.object.to), [carol.uri]);
  });

  test("a vote in a local poll sends Update(Question) with the new counts", async () => {
    const { result: status } = await post({
      status: "tabs or spaces?",
      poll: { options: ["tabs", "spaces"], expires_in: 3600 },
    });
    const { got } = await act(() =>
      votePoll(server.wren.ctx, { accountId: bob.id, pollId: status.poll.id, choices: [0] }),
    );
    assert.deepEqual(paths(got), ["/inbox", "/users/dave/inbox"]);
    const update = got[0]?.activity;
    assert.equal(update.type, "Update");
    assert.equal(update.object.type, "Question");
    assert.equal(update.object.id, status.uri);
    const options = Array.isArray(update.object.oneOf)
      ? update.object.oneOf
      : [update.object.oneOf];
    assert.equal(options[0].name, "tabs");
    assert.equal(options[0].replies.totalItems, 1);
    // Not an edit: Mastodon would record a newer `updated` as one.
    assert.equal(update.object.updated, undefined);
  });

  test("what remote accounts do is never echoed back to the peer", async () => {
    const mine = await post({ status: "like me" });
    const { got } = await act(async () => {
      const theirs = await remoteStatus(bob);
      await server.wren.ctx.events.publish({ type: "status.created", status: theirs });
      await favouriteStatus(server.wren.ctx, bob.id, mine.result.id);
    });
    assert.deepEqual(got, []);
  });

  test("a blocked domain gets nothing", async () => {
    await blockDomain(server.wren.ctx, peer.host);
    try {
      const { result, got } = await post({ status: "not for them" });
      assert.ok(result.id);
      assert.deepEqual(got, []);
    } finally {
      await unblockDomain(server.wren.ctx, peer.host);
    }
  });

  test("every POST the peer got carried a valid signature of its actor", () => {
    assert.ok(peer.attempts.length > 0);
    // An unverifiable POST would have been answered 401 (and sent again with the other
    // signature spec by Fedify's double knock): none was.
    assert.deepEqual(
      peer.attempts.filter((a) => a.status !== 202),
      [],
    );
    assert.equal(peer.attempts.length, peer.deliveries.length);
  });
});

describe("outbox bridge: failed deliveries", () => {
  const clock = movableClock();
  let server: TestServer;
  let peer: RecordingPeer;
  let alice: TestUser;

  before(async () => {
    peer = await startRecordingPeer();
    server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" }, { clock });
    alice = await createUserWithToken(server, "alice");
    const bob = await peer.addAccount(server, "bob");
    await receiveFollow(server.wren.ctx, bob, alice.account, `${bob.uri}#follow`);
    await server.wren.jobs.runDue();
  });

  after(async () => {
    await server?.close();
    await peer?.close();
  });

  async function postStatus(text: string): Promise<Json> {
    const res = await call(server, "POST", "/api/v1/statuses", alice.token, { status: text });
    assert.equal(res.status, 200, "the local action does not depend on the peer");
    return res.body;
  }

  test("the post succeeds while the peer answers 500; a retry delivers it later", async () => {
    const before = peer.deliveries.length;
    peer.failWith(500);
    const status = await postStatus("hi bob");
    await server.wren.jobs.runDue();
    assert.equal(peer.deliveries.length, before, "the first attempt failed");
    assert.equal(peer.attempts.at(-1)?.status, 500);
    const shown = await call(server, "GET", `/api/v1/statuses/${status.id}`, alice.token);
    assert.equal(shown.status, 200);

    // Fedify's first retry comes one to two minutes later (OUTBOX_RETRY_POLICY).
    peer.failWith(null);
    clock.advance(5 * MINUTE);
    await server.wren.jobs.runDue();
    const delivered = peer.deliveries.slice(before);
    assert.equal(delivered.length, 1);
    assert.equal(delivered[0]?.activity.type, "Create");
    assert.equal(delivered[0]?.activity.id, `${status.uri}/activity`);
  });

  test("an inbox answering 410 is not tried again", async () => {
    peer.failWith(410);
    try {
      await postStatus("anyone there?");
      await server.wren.jobs.runDue();
      const tried = peer.attempts.length;
      assert.equal(peer.attempts.at(-1)?.status, 410);
      clock.advance(24 * 60 * MINUTE);
      await server.wren.jobs.runDue();
      assert.equal(peer.attempts.length, tried);
    } finally {
      peer.failWith(null);
    }
  });

  test("a follower whose record is unusable does not stop the others", async () => {
    const broken = await peer.addAccount(server, "broken");
    const ctx = server.wren.ctx;
    const remote = { ...broken.remote, inbox: "not a url", sharedInbox: null };
    await ctx.storage.accounts.put({ ...broken, remote } as Account);
    await receiveFollow(ctx, { ...broken, remote } as Account, alice.account, `${broken.uri}#f`);
    const before = peer.deliveries.length;
    const status = await postStatus("still here");
    await server.wren.jobs.runDue();
    const creates = peer.deliveries.slice(before).filter((d) => d.activity.type === "Create");
    assert.deepEqual(
      creates.map((d) => d.activity.object.id),
      [status.uri],
    );
  });
});
