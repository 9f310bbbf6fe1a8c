// The inboxes over real HTTP: a loopback peer publishes actors with real keys and delivers
// signed activities to Wren's shared and personal inboxes; each activity's effect is checked
// through the client API (what a user sees) or the stored records, notifications included.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { AS_CONTEXT, type FakePeer, PUBLIC, startFakePeer } from "./fake-peer.ts";
import {
  activity,
  api,
  createNote,
  deliver,
  followAccepted,
  notificationTypes,
  remoteAccount,
  statusByUri,
} from "./inbox-helpers.ts";

describe("inbox: activities from remote servers", () => {
  let server: TestServer;
  let peer: FakePeer;
  let alice: TestUser;
  let carol: TestUser;

  before(async () => {
    server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" });
    peer = await startFakePeer();
    alice = await createUserWithToken(server, "alice", ["read", "write", "follow"]);
    carol = await createUserWithToken(server, "carol", ["read", "write", "follow"]);
    await api(server, "PATCH", "/api/v1/accounts/update_credentials", carol.token, {
      locked: true,
    });
  });

  after(async () => {
    await server.close();
    await peer.close();
  });

  const relationship = async (user: TestUser, accountId: string) =>
    (await api(server, "GET", `/api/v1/accounts/relationships?id[]=${accountId}`, user.token))[0];

  const post = (user: TestUser, body: Record<string, unknown>) =>
    api(server, "POST", "/api/v1/statuses", user.token, body);

  it("Follow of an unlocked account follows at once and notifies; Undo ends it", async () => {
    const bob = await peer.actor("bob");
    const follow = activity(peer, bob, "Follow", { object: alice.account.uri });
    await deliver(server, peer, follow);
    const remote = await remoteAccount(server, bob);
    assert.equal(remote.domain, peer.host);
    // Its key and document were fetched signed (by the instance actor), as authorized fetch needs.
    const bobPath = new URL(bob.id).pathname;
    const actorFetches = peer.fetches.filter((f) => f.path === bobPath);
    assert.ok(actorFetches.length > 0 && actorFetches.every((f) => f.signed));
    const edge = await server.wren.ctx.storage.follows.get(remote.id, alice.account.id);
    assert.equal(edge?.uri, follow.id, "the Follow id is kept for the Accept");
    assert.equal((await relationship(alice, remote.id)).followed_by, true);
    assert.deepEqual(await notificationTypes(server, alice.token, bob), ["follow"]);
    // The outbox bridge answers with an Accept naming the Follow.
    const accept = peer.deliveries.find((d) => d.body?.type === "Accept");
    const named = accept?.body.object;
    assert.equal(typeof named === "string" ? named : named?.id, follow.id);

    await deliver(server, peer, activity(peer, bob, "Undo", { object: follow }));
    assert.equal((await relationship(alice, remote.id)).followed_by, false);
    assert.deepEqual(await notificationTypes(server, alice.token, bob), []);
  });

  it("accepts RFC 9421 signatures as well as draft-cavage ones", async () => {
    const vic = await peer.actor("vic");
    const follow = activity(peer, vic, "Follow", { object: alice.account.uri });
    await deliver(server, peer, follow, { rfc9421: true });
    const edge = await server.wren.ctx.storage.follows.get(
      (await remoteAccount(server, vic)).id,
      alice.account.id,
    );
    assert.equal(edge?.uri, follow.id);
  });

  it("Follow of a locked account is a request, to the personal inbox too", async () => {
    const dana = await peer.actor("dana");
    const follow = activity(peer, dana, "Follow", { object: carol.account.uri });
    await deliver(server, peer, follow, { inbox: `${carol.account.uri}/inbox` });
    const remote = await remoteAccount(server, dana);
    assert.equal((await relationship(carol, remote.id)).requested_by, true);
    assert.equal((await relationship(carol, remote.id)).followed_by, false);
    assert.deepEqual(await notificationTypes(server, carol.token, dana), ["follow_request"]);
    assert.equal(
      peer.deliveries.some((d) => d.body?.type === "Accept" && d.body.actor === carol.account.uri),
      false,
      "a locked account accepts by hand",
    );
    const requests = await api(server, "GET", "/api/v1/follow_requests", carol.token);
    assert.ok(requests.some((a: { id: string }) => a.id === remote.id));
  });

  it("Follow from an account the target blocks is refused with a Reject", async () => {
    const uma = await peer.actor("uma");
    // A first contact (a Like of nothing we hold) makes uma known, so alice can block it.
    await deliver(server, peer, activity(peer, uma, "Like", { object: alice.account.uri }));
    const umaAccount = await remoteAccount(server, uma);
    await api(server, "POST", `/api/v1/accounts/${umaAccount.id}/block`, alice.token);
    const follow = activity(peer, uma, "Follow", { object: alice.account.uri });
    await deliver(server, peer, follow);
    assert.equal((await relationship(alice, umaAccount.id)).followed_by, false);
    assert.deepEqual(await notificationTypes(server, alice.token, uma), []);
    const reject = peer.deliveries.find(
      (d) => d.body?.type === "Reject" && JSON.stringify(d.body.object).includes(follow.id),
    );
    assert.ok(reject, "the peer hears that the follow was refused");
  });

  it("Accept turns a local follow request into a follow; Reject drops another", async () => {
    const erin = await peer.actor("erin");
    const frank = await peer.actor("frank");
    // Both become known through a first contact (their Follow of alice).
    for (const actor of [erin, frank]) {
      await deliver(server, peer, activity(peer, actor, "Follow", { object: alice.account.uri }));
    }
    const erinAccount = await remoteAccount(server, erin);
    const frankAccount = await remoteAccount(server, frank);
    for (const account of [erinAccount, frankAccount]) {
      const rel = await api(server, "POST", `/api/v1/accounts/${account.id}/follow`, alice.token);
      assert.equal(rel.requested, true, "a remote follow waits for the Accept");
    }
    const requestTo = (id: string) =>
      server.wren.ctx.storage.followRequests.get(alice.account.id, id);
    const erinRequest = await requestTo(erinAccount.id);
    assert.ok(erinRequest?.uri);
    // Mastodon embeds the Follow it accepts.
    await deliver(
      server,
      peer,
      activity(peer, erin, "Accept", {
        object: { id: erinRequest.uri, type: "Follow", actor: alice.account.uri, object: erin.id },
      }),
    );
    const rel = await relationship(alice, erinAccount.id);
    assert.equal(rel.following, true);
    assert.equal(rel.requested, false);

    // Another actor cannot answer for frank: its Reject names frank's request but is ignored.
    const frankRequest = await requestTo(frankAccount.id);
    assert.ok(frankRequest?.uri);
    await deliver(server, peer, activity(peer, erin, "Reject", { object: frankRequest.uri }));
    assert.equal((await relationship(alice, frankAccount.id)).requested, true);
    // Some servers name only the Follow's id.
    await deliver(server, peer, activity(peer, frank, "Reject", { object: frankRequest.uri }));
    const after = await relationship(alice, frankAccount.id);
    assert.equal(after.requested, false);
    assert.equal(after.following, false);
  });

  it("Create stores a post of a followed account in home; a mention notifies", async () => {
    const gina = await peer.actor("gina");
    const ginaAccount = await followAccepted(server, peer, gina, alice);

    const { create, note } = createNote(peer, gina, { content: "<p>First post</p>" });
    await deliver(server, peer, create);
    const stored = await statusByUri(server, note.id);
    assert.ok(stored, "the note is stored");
    assert.equal(stored.accountId, ginaAccount.id);
    assert.equal(stored.local, false);
    const home = await api(server, "GET", "/api/v1/timelines/home", alice.token);
    assert.ok(
      home.some((s: { uri: string }) => s.uri === note.id),
      "in the follower's home",
    );

    const mention = createNote(peer, gina, {
      content: `<p><a href="${alice.account.url}">@alice</a> hi</p>`,
      tag: [
        {
          type: "Mention",
          href: alice.account.uri,
          name: `@alice@${server.wren.ctx.settings.domain}`,
        },
      ],
      cc: [alice.account.uri],
    });
    await deliver(server, peer, mention.create);
    const mentioned = await statusByUri(server, mention.note.id);
    assert.deepEqual(mentioned?.mentionIds, [alice.account.id]);
    assert.ok((await notificationTypes(server, alice.token, gina)).includes("mention"));

    // A stranger's reply to a followed account's post belongs to a thread someone here reads.
    const stranger = await peer.actor("gina-fan");
    const reply = createNote(peer, stranger, { inReplyTo: note.id, content: "<p>Nice</p>" });
    await deliver(server, peer, reply.create);
    assert.equal((await statusByUri(server, reply.note.id))?.inReplyToId, stored.id);
  });

  it("Create asks for the post's stored copy before the once-guard's look, not after (ADR 0066)", async () => {
    const gina = await peer.actor("gina-ahead");
    await followAccepted(server, peer, gina, alice);
    const { create, note } = createNote(peer, gina, { content: "<p>Ahead</p>" });
    // The storage's own methods, each call noted in order (nothing answered in their place).
    const { storage } = server.wren.ctx;
    const seen: string[] = [];
    const { statuses, kv, coordination } = storage;
    const findByUri = statuses.findByUri;
    const get = kv.get;
    const runOnce = coordination.runOnce;
    statuses.findByUri = (uri) => {
      if (uri === note.id) seen.push("status read");
      return findByUri.call(statuses, uri);
    };
    kv.get = (key) => {
      if (key[1] === "inboxDone" && key[2] === create.id) seen.push("once-guard");
      return get.call(kv, key);
    };
    if (runOnce) {
      coordination.runOnce = (record, ...rest) => {
        if (record[2] === create.id) seen.push("once-guard");
        return runOnce.call(coordination, record, ...rest);
      };
    }
    let replay: string[] = [];
    try {
      await deliver(server, peer, create);
      replay = seen.splice(0, seen.length);
      // A copy this process handled already is dropped before any read.
      await deliver(server, peer, create);
    } finally {
      statuses.findByUri = findByUri;
      kv.get = get;
      if (runOnce) coordination.runOnce = runOnce;
    }
    assert.ok(await statusByUri(server, note.id), "the note is stored");
    // Then, on json-file, the read again under the post's lock (PostgreSQL's lock reads it).
    assert.deepEqual(replay, ["status read", "once-guard", ...(runOnce ? [] : ["status read"])]);
    assert.deepEqual(seen, []);
  });

  it("Create from a stranger that concerns nobody here is not stored", async () => {
    const hank = await peer.actor("hank");
    const { create, note } = createNote(peer, hank);
    await deliver(server, peer, create);
    assert.equal(await statusByUri(server, note.id), undefined);
  });

  it("Update edits the sender's post; Delete removes it", async () => {
    const ivy = await peer.actor("ivy");
    const { create, note } = createNote(peer, ivy, { cc: [alice.account.uri] });
    await deliver(server, peer, create);
    assert.ok(await statusByUri(server, note.id));
    const edited = { ...note, content: "<p>Edited text</p>", updated: new Date().toISOString() };
    await deliver(server, peer, activity(peer, ivy, "Update", { object: edited }));
    assert.match((await statusByUri(server, note.id))?.contentHtml ?? "", /Edited text/);
    await deliver(
      server,
      peer,
      activity(peer, ivy, "Delete", { object: { id: note.id, type: "Tombstone" } }),
    );
    assert.equal((await statusByUri(server, note.id))?.deleted, true);
  });

  it("Like, EmojiReact and Misskey reactions favourite a local post; Undo takes it back", async () => {
    const status = await post(alice, { status: "Like me" });
    const [jay, kim, lou] = await Promise.all([
      peer.actor("jay"),
      peer.actor("kim"),
      peer.actor("lou"),
    ]);
    const like = activity(peer, jay, "Like", { object: status.uri });
    await deliver(server, peer, like);
    // Pleroma and Akkoma define EmojiReact in a context document their server serves.
    const litepub = peer.put("/schemas/litepub-0.1.jsonld", {
      "@context": { litepub: "http://litepub.social/ns#", EmojiReact: "litepub:EmojiReact" },
    });
    const reaction = {
      ...activity(peer, kim, "EmojiReact", { object: status.uri, content: "🔥" }),
      "@context": [AS_CONTEXT, litepub, { "@language": "und" }],
    };
    await deliver(server, peer, reaction);
    await deliver(server, peer, {
      ...activity(peer, lou, "Like", { object: status.uri, content: "👍" }),
      "@context": [
        AS_CONTEXT,
        { misskey: "https://misskey-hub.net/ns#", _misskey_reaction: "misskey:_misskey_reaction" },
      ],
      _misskey_reaction: "👍",
    });
    let seen = await api(server, "GET", `/api/v1/statuses/${status.id}`, alice.token);
    assert.equal(seen.favourites_count, 3);
    assert.deepEqual(await notificationTypes(server, alice.token, jay), ["favourite"]);
    assert.deepEqual(await notificationTypes(server, alice.token, kim), ["favourite"]);

    await deliver(server, peer, activity(peer, jay, "Undo", { object: like }));
    seen = await api(server, "GET", `/api/v1/statuses/${status.id}`, alice.token);
    assert.equal(seen.favourites_count, 2);
    assert.deepEqual(await notificationTypes(server, alice.token, jay), []);
    // An Undo naming only the id of a reaction its server does not serve still finds it.
    await deliver(server, peer, activity(peer, kim, "Undo", { object: reaction.id }));
    seen = await api(server, "GET", `/api/v1/statuses/${status.id}`, alice.token);
    assert.equal(seen.favourites_count, 1);
  });

  it("Announce boosts a local post and notifies; Undo removes the boost", async () => {
    const status = await post(alice, { status: "Boost me" });
    const max = await peer.actor("max");
    const announce = activity(peer, max, "Announce", {
      object: status.uri,
      to: [PUBLIC],
      cc: [max.followers],
      published: new Date().toISOString(),
    });
    await deliver(server, peer, announce);
    const reblog = await statusByUri(server, announce.id);
    assert.equal(reblog?.reblogOfId, status.id);
    assert.equal(reblog?.visibility, "public");
    let seen = await api(server, "GET", `/api/v1/statuses/${status.id}`, alice.token);
    assert.equal(seen.reblogs_count, 1);
    assert.deepEqual(await notificationTypes(server, alice.token, max), ["reblog"]);

    await deliver(server, peer, activity(peer, max, "Undo", { object: announce }));
    seen = await api(server, "GET", `/api/v1/statuses/${status.id}`, alice.token);
    assert.equal(seen.reblogs_count, 0);
    assert.deepEqual(await notificationTypes(server, alice.token, max), []);
  });

  it("Announce of a remote post by a followed account stores the post and the boost", async () => {
    const ned = await peer.actor("ned");
    const ola = await peer.actor("ola");
    await followAccepted(server, peer, ned, alice);
    // ola's post is only on the peer; ned's Announce names it by id.
    const { note } = createNote(peer, ola, { content: "<p>Original by ola</p>" });
    peer.put(new URL(note.id).pathname, { "@context": AS_CONTEXT, ...note });
    const announce = activity(peer, ned, "Announce", { object: note.id, to: [PUBLIC] });
    await deliver(server, peer, announce);
    const original = await statusByUri(server, note.id);
    assert.ok(original, "the boosted post was fetched");
    assert.equal((await statusByUri(server, announce.id))?.reblogOfId, original.id);
  });

  it("a remote vote (Create Note with name) counts in a local poll", async () => {
    const status = await post(alice, {
      status: "Tea or coffee?",
      poll: { options: ["tea", "coffee"], expires_in: 3600 },
    });
    const pia = await peer.actor("pia");
    const { create } = createNote(peer, pia, {
      name: "coffee",
      content: undefined,
      inReplyTo: status.uri,
      to: [alice.account.uri],
      cc: [],
    });
    await deliver(server, peer, create);
    const poll = await api(server, "GET", `/api/v1/polls/${status.poll.id}`, alice.token);
    assert.deepEqual(
      poll.options.map((o: { votes_count: number }) => o.votes_count),
      [0, 1],
    );
  });

  it("Block by a remote actor ends follows both ways; Undo Block lifts it", async () => {
    const quin = await peer.actor("quin");
    const follow = activity(peer, quin, "Follow", { object: alice.account.uri });
    await deliver(server, peer, follow);
    const quinAccount = await remoteAccount(server, quin);
    await api(server, "POST", `/api/v1/accounts/${quinAccount.id}/follow`, alice.token);
    const block = activity(peer, quin, "Block", { object: alice.account.uri });
    await deliver(server, peer, block);
    const rel = await relationship(alice, quinAccount.id);
    assert.equal(rel.blocked_by, true);
    assert.equal(rel.followed_by, false);
    assert.equal(rel.requested, false);
    const edge = await server.wren.ctx.storage.blocks.get(quinAccount.id, alice.account.id);
    assert.equal(edge?.uri, block.id);
    await deliver(server, peer, activity(peer, quin, "Undo", { object: block }));
    assert.equal((await relationship(alice, quinAccount.id)).blocked_by, false);
  });

  it("Move with alsoKnownAs moves local followers to the new account", async () => {
    const old = await peer.actor("rita");
    const moved = await peer.actor("rita2", { alsoKnownAs: [old.id] });
    const oldAccount = await followAccepted(server, peer, old, alice, carol.account.uri);
    assert.equal((await relationship(alice, oldAccount.id)).following, true);

    await deliver(server, peer, activity(peer, old, "Move", { object: old.id, target: moved.id }));
    const movedAccount = await remoteAccount(server, moved);
    assert.equal((await remoteAccount(server, old)).remote?.movedTo, moved.id);
    assert.equal((await relationship(alice, oldAccount.id)).following, false);
    // A follow of a remote account waits for its Accept: requested.
    assert.equal((await relationship(alice, movedAccount.id)).requested, true);
    const asked = peer.deliveries.some(
      (d) =>
        d.body?.type === "Follow" &&
        d.body.actor === alice.account.uri &&
        d.body.object === moved.id,
    );
    assert.ok(asked, "the new account is sent a Follow");
    assert.ok((await notificationTypes(server, alice.token, old)).includes("move"));
    // The old account shows where it went, as Mastodon's `moved`.
    const shown = await api(server, "GET", `/api/v1/accounts/${oldAccount.id}`, alice.token);
    assert.equal(shown.moved?.id, movedAccount.id);
    assert.equal(shown.moved.moved, undefined, "never nested");
  });

  it("Move to an account that has itself moved on is refused (chains and loops)", async () => {
    const old = await peer.actor("wes");
    const elsewhere = await peer.actor("wes3");
    const moved = await peer.actor("wes2", { alsoKnownAs: [old.id], movedTo: elsewhere.id });
    const oldAccount = await followAccepted(server, peer, old, alice);
    await deliver(server, peer, activity(peer, old, "Move", { object: old.id, target: moved.id }));
    assert.equal((await remoteAccount(server, old)).remote?.movedTo ?? null, null);
    assert.equal((await relationship(alice, oldAccount.id)).following, true);
    assert.ok(!(await notificationTypes(server, alice.token, old)).includes("move"));
  });

  it("Move to a local account that lists the origin moves local followers to it", async () => {
    const old = await peer.actor("vera");
    const vera = await createUserWithToken(server, "vera", ["read", "write", "follow"]);
    const oldAccount = await followAccepted(server, peer, old, alice);
    await server.wren.ctx.storage.accounts.put({ ...vera.account, aliases: [old.id] });
    await deliver(
      server,
      peer,
      activity(peer, old, "Move", { object: old.id, target: vera.account.uri }),
    );
    assert.equal((await remoteAccount(server, old)).remote?.movedTo, vera.account.uri);
    assert.equal((await relationship(alice, vera.account.id)).following, true);
    assert.equal((await relationship(alice, oldAccount.id)).following, false);
  });

  it("Flag is stored as a report about the local account and its statuses", async () => {
    const status = await post(carol, { status: "Reported post" });
    // Mastodon sends reports as its instance actor, an Application named after the host.
    const mod = await peer.actor(peer.host, { instanceActor: true });
    const flag = activity(peer, mod, "Flag", {
      object: [carol.account.uri, status.uri],
      content: "Spam, please look",
    });
    await deliver(server, peer, flag);
    const report = await server.wren.ctx.storage.reports.findByUri(flag.id);
    assert.ok(report);
    assert.equal(report.targetAccountId, carol.account.id);
    assert.deepEqual(report.statusIds, [status.id]);
    assert.equal(report.comment, "Spam, please look");
    assert.equal(report.accountId, (await remoteAccount(server, mod)).id);
  });

  it("Delete of the actor suspends the account and removes its content", async () => {
    const sam = await peer.actor("sam");
    await deliver(server, peer, activity(peer, sam, "Follow", { object: alice.account.uri }));
    const { create, note } = createNote(peer, sam, { cc: [alice.account.uri] });
    await deliver(server, peer, create);
    const status = await post(alice, { status: "Sam likes this" });
    await deliver(server, peer, activity(peer, sam, "Like", { object: status.uri }));
    assert.ok(await statusByUri(server, note.id));

    await deliver(server, peer, activity(peer, sam, "Delete", { object: sam.id, to: [PUBLIC] }));
    const account = await remoteAccount(server, sam);
    assert.equal(account.suspended, true);
    assert.equal((await statusByUri(server, note.id))?.deleted, true);
    assert.equal((await relationship(alice, account.id)).followed_by, false);
    const seen = await api(server, "GET", `/api/v1/statuses/${status.id}`, alice.token);
    assert.equal(seen.favourites_count, 0);

    // A suspended account is never revived by a later activity.
    await deliver(server, peer, activity(peer, sam, "Follow", { object: alice.account.uri }));
    assert.equal((await relationship(alice, account.id)).followed_by, false);
  });

  it("Delete of an actor whose document is already gone (410) is still honoured", async () => {
    const tess = await peer.actor("tess");
    await deliver(server, peer, activity(peer, tess, "Follow", { object: alice.account.uri }));
    const { create, note } = createNote(peer, tess, { cc: [alice.account.uri] });
    await deliver(server, peer, create);
    const farewell = activity(peer, tess, "Delete", { object: tess.id, to: [PUBLIC] });
    // While the actor exists, a Delete signed with a key it does not publish is refused.
    const refused = await peer.send(`${server.url}/inbox`, farewell, {
      keyId: `${tess.id}#unpublished-key`,
    });
    assert.equal(refused.status, 401);
    assert.notEqual((await remoteAccount(server, tess)).suspended, true);

    // Once its server answers 410 for the actor, its key cannot be fetched any more.
    peer.gone(tess);
    await deliver(server, peer, farewell, { keyId: `${tess.id}#other-key` });
    assert.equal((await remoteAccount(server, tess)).suspended, true);
    assert.equal((await statusByUri(server, note.id))?.deleted, true);
  });
});
