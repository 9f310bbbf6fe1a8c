// A hostile peer against the inboxes (issue 6, item 5): every defence rule, each shown
// refusing. Requests go over real HTTP from a loopback peer that holds real keys; the
// effects (or their absence) are read from storage after the queued inbox tasks ran.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { generateCryptoKeyPair } from "@fedify/fedify";
import { blockDomain } from "../../src/services/domain-blocks/domain-blocks.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { AS_CONTEXT, type FakeActor, type FakePeer, startFakePeer } from "./fake-peer.ts";
import {
  activity,
  api,
  createNote,
  deliver,
  followAccepted,
  notificationTypes,
  remoteAccount,
  settle,
  statusByUri,
} from "./inbox-helpers.ts";

describe("inbox: hostile peers", () => {
  let server: TestServer;
  let peer: FakePeer;
  let other: FakePeer;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" });
    [peer, other] = await Promise.all([startFakePeer(), startFakePeer()]);
    alice = await createUserWithToken(server, "alice", ["read", "write", "follow"]);
  });

  after(async () => {
    await server.close();
    await Promise.all([peer.close(), other.close()]);
  });

  const sharedInbox = () => `${server.url}/inbox`;
  const followersOf = async (accountId: string) =>
    server.wren.ctx.storage.follows.countTo(accountId);
  /** Does this peer actor follow alice (or ask to)? */
  const followsAlice = async (actor: FakeActor) => {
    const account = await server.wren.ctx.storage.accounts.findByUri(actor.id);
    if (!account) return false;
    const { follows, followRequests } = server.wren.ctx.storage;
    return (
      (await follows.get(account.id, alice.account.id)) !== undefined ||
      (await followRequests.get(account.id, alice.account.id)) !== undefined
    );
  };

  it("answers 401 to an unsigned POST and acts on nothing", async () => {
    const mallory = await peer.actor("mallory1");
    const follow = activity(peer, mallory, "Follow", { object: alice.account.uri });
    const res = await peer.send(sharedInbox(), follow, { unsigned: true });
    assert.equal(res.status, 401);
    await settle(server);
    assert.equal(await server.wren.ctx.storage.accounts.findByUri(mallory.id), undefined);
    assert.equal(await followsAlice(mallory), false);
  });

  it("answers 401 to a signature made with a key that is not the actor's", async () => {
    const mallory = await peer.actor("mallory2");
    const forged = await generateCryptoKeyPair("RSASSA-PKCS1-v1_5");
    const follow = activity(peer, mallory, "Follow", { object: alice.account.uri });
    const res = await peer.send(`${alice.account.uri}/inbox`, follow, {
      privateKey: forged.privateKey,
    });
    assert.equal(res.status, 401);
    await settle(server);
    assert.equal(await followsAlice(mallory), false);
  });

  it("answers 401 to a body changed after it was signed", async () => {
    const mallory = await peer.actor("tamperer");
    const follow = activity(peer, mallory, "Follow", { object: alice.account.uri });
    const changed = JSON.stringify({ ...follow, id: `${follow.id}-changed` });
    const res = await peer.send(sharedInbox(), follow, { bodySent: changed });
    assert.equal(res.status, 401);
    await settle(server);
    assert.equal(await followsAlice(mallory), false);
  });

  it("accepts a signed activity whose body comes chunked, without a Content-Length", async () => {
    const chunky = await peer.actor("chunky");
    const follow = activity(peer, chunky, "Follow", { object: alice.account.uri });
    const res = await peer.send(sharedInbox(), follow, { chunked: true });
    assert.equal(res.status, 202, await res.text());
    await settle(server);
    assert.equal(await followsAlice(chunky), true);
  });

  it("answers 401 when the signer is not the actor", async () => {
    const mallory = await peer.actor("mallory3");
    const victim = await peer.actor("victim3");
    const follow = activity(peer, victim, "Follow", { object: alice.account.uri });
    const res = await peer.send(sharedInbox(), follow, { signer: mallory });
    assert.equal(res.status, 401);
    await settle(server);
    assert.equal(await followsAlice(victim), false);
  });

  it("acts once on a replayed activity, also when the copies arrive together", async () => {
    const status = await api(server, "POST", "/api/v1/statuses", alice.token, { status: "x" });
    const replayer = await peer.actor("replayer");
    const announce = activity(peer, replayer, "Announce", {
      object: status.uri,
      to: ["https://www.w3.org/ns/activitystreams#Public"],
    });
    const like = activity(peer, replayer, "Like", { object: status.uri });
    // Sequential replays of the Like, and the Announce to two inboxes at once, twice.
    await deliver(server, peer, like);
    await deliver(server, peer, like);
    const copies = await Promise.all([
      peer.send(sharedInbox(), announce),
      peer.send(`${alice.account.uri}/inbox`, announce),
      peer.send(sharedInbox(), announce),
    ]);
    for (const res of copies) assert.equal(res.status, 202);
    await settle(server);
    const seen = await api(server, "GET", `/api/v1/statuses/${status.id}`, alice.token);
    assert.equal(seen.favourites_count, 1);
    assert.equal(seen.reblogs_count, 1);
    const types = await notificationTypes(server, alice.token, replayer);
    assert.deepEqual(types.sort(), ["favourite", "reblog"]);
  });

  it("ignores Update, Delete and Undo of what someone else owns", async () => {
    const owner = await peer.actor("owner");
    const mallory = await peer.actor("mallory4");
    const { create, note } = createNote(peer, owner, {
      content: "<p>Original</p>",
      cc: [alice.account.uri],
    });
    await deliver(server, peer, create);
    assert.ok(await statusByUri(server, note.id));
    // The forged copy claims the owner as author, and then mallory as author.
    const forged = { ...note, content: "<p>Forged</p>" };
    await deliver(server, peer, activity(peer, mallory, "Update", { object: forged }));
    await deliver(
      server,
      peer,
      activity(peer, mallory, "Update", { object: { ...forged, attributedTo: mallory.id } }),
    );
    await deliver(server, peer, activity(peer, mallory, "Delete", { object: note.id }));
    const after = await statusByUri(server, note.id);
    assert.equal(after?.deleted, false);
    assert.match(after?.contentHtml ?? "", /Original/);
    assert.doesNotMatch(after?.contentHtml ?? "", /Forged/);
    // Nor can another account's Undo take back the owner's boost.
    const status = await api(server, "POST", "/api/v1/statuses", alice.token, { status: "y" });
    const announce = activity(peer, owner, "Announce", { object: status.uri, to: [] });
    await deliver(server, peer, announce);
    await deliver(server, peer, activity(peer, mallory, "Undo", { object: announce }));
    await deliver(server, peer, activity(peer, mallory, "Undo", { object: announce.id }));
    assert.equal((await statusByUri(server, announce.id))?.deleted, false);
    // Nor end the owner's follow by embedding it in an Undo of its own.
    const follow = activity(peer, owner, "Follow", { object: alice.account.uri });
    await deliver(server, peer, follow);
    const ownerAccount = await remoteAccount(server, owner);
    await deliver(server, peer, activity(peer, mallory, "Undo", { object: follow }));
    await deliver(server, peer, activity(peer, mallory, "Undo", { object: follow.id }));
    assert.ok(await server.wren.ctx.storage.follows.get(ownerAccount.id, alice.account.id));
  });

  it("does not store an embedded object of another origin as given", async () => {
    const mallory = await peer.actor("mallory5");
    // The object claims to live on another server, which has never published it (404).
    const foreignId = other.newId("notes");
    const { create } = createNote(peer, mallory, {
      id: foreignId,
      content: "<p>Words put in another server's mouth</p>",
      cc: [alice.account.uri],
    });
    await deliver(server, peer, create);
    assert.equal(await statusByUri(server, foreignId), undefined);

    // Published there by someone else: refetched from its origin, it is not mallory's post.
    const author = await other.actor("author");
    const real = createNote(other, author, { content: "<p>The real text</p>" });
    other.put(new URL(real.note.id).pathname, { "@context": AS_CONTEXT, ...real.note });
    const lie = createNote(peer, mallory, {
      id: real.note.id,
      content: "<p>Forged text</p>",
      cc: [alice.account.uri],
    });
    await deliver(server, peer, lie.create);
    const stored = await statusByUri(server, real.note.id);
    if (stored) assert.doesNotMatch(stored.contentHtml, /Forged/);
  });

  it("ignores an activity whose id is on another origin than its actor", async () => {
    const mallory = await peer.actor("mallory6");
    const follow = {
      ...activity(peer, mallory, "Follow", { object: alice.account.uri }),
      id: other.newId("activities"),
    };
    await deliver(server, peer, follow);
    assert.equal(await followsAlice(mallory), false);
  });

  it("ignores a Move to an actor that does not list the origin in alsoKnownAs", async () => {
    const origin = await peer.actor("origin");
    const stranger = await peer.actor("stranger");
    const originAccount = await followAccepted(server, peer, origin, alice);
    await deliver(
      server,
      peer,
      activity(peer, origin, "Move", { object: origin.id, target: stranger.id }),
    );
    assert.equal((await remoteAccount(server, origin)).remote?.movedTo ?? null, null);
    assert.ok(await server.wren.ctx.storage.follows.get(alice.account.id, originAccount.id));
    const strangerAccount = await server.wren.ctx.storage.accounts.findByUri(stranger.id);
    if (strangerAccount) {
      const asked = await server.wren.ctx.storage.followRequests.get(
        alice.account.id,
        strangerAccount.id,
      );
      assert.equal(asked, undefined);
    }
    // Nor may an actor move someone else.
    const mallory = await peer.actor("mallory7", { alsoKnownAs: [origin.id] });
    await deliver(
      server,
      peer,
      activity(peer, mallory, "Move", { object: origin.id, target: mallory.id }),
    );
    assert.equal((await remoteAccount(server, origin)).remote?.movedTo ?? null, null);
  });

  it("ignores everything from a blocked domain", async () => {
    const blocked = await startFakePeer();
    try {
      const spammer = await blocked.actor("spammer");
      const before = await followersOf(alice.account.id);
      await blockDomain(server.wren.ctx, blocked.host);
      const follow = activity(blocked, spammer, "Follow", { object: alice.account.uri });
      await deliver(server, blocked, follow);
      const { create, note } = createNote(blocked, spammer, { cc: [alice.account.uri] });
      await deliver(server, blocked, create);
      assert.equal(await server.wren.ctx.storage.accounts.findByUri(spammer.id), undefined);
      assert.equal(await statusByUri(server, note.id), undefined);
      assert.equal(await followersOf(alice.account.id), before);
    } finally {
      await blocked.close();
    }
  });

  it("never answers 5xx to malformed documents, and changes nothing", async () => {
    const mallory = await peer.actor("mallory8");
    const inbox = sharedInbox();
    const before = await followersOf(alice.account.id);
    const bodies: { body: unknown; raw?: string }[] = [
      { body: null, raw: "{not json" },
      { body: null, raw: "[]" },
      { body: null, raw: '"just a string"' },
      { body: { "@context": AS_CONTEXT, type: "Follow", object: alice.account.uri } },
      { body: { "@context": AS_CONTEXT, id: peer.newId(), type: "Follow", actor: mallory.id } },
      {
        body: {
          "@context": AS_CONTEXT,
          id: peer.newId(),
          type: "Create",
          actor: mallory.id,
          object: { type: "Note", content: 42, attributedTo: { nested: [1, 2] } },
        },
      },
      {
        body: {
          "@context": AS_CONTEXT,
          id: "not a url",
          type: "Like",
          actor: mallory.id,
          object: "javascript:alert(1)",
        },
      },
      {
        body: {
          "@context": "https://evil.invalid/context.jsonld",
          id: peer.newId(),
          type: "Follow",
          actor: mallory.id,
          object: alice.account.uri,
        },
      },
      {
        body: {
          "@context": AS_CONTEXT,
          id: peer.newId(),
          type: "Undo",
          actor: mallory.id,
          object: { type: "Follow", actor: { id: 12 }, object: null },
        },
      },
      {
        body: {
          "@context": AS_CONTEXT,
          id: peer.newId(),
          type: "Flag",
          actor: mallory.id,
          object: [],
          content: ["a", "b"],
        },
      },
      {
        body: {
          "@context": AS_CONTEXT,
          id: peer.newId(),
          type: "Move",
          actor: mallory.id,
          object: mallory.id,
        },
      },
      {
        body: {
          "@context": AS_CONTEXT,
          id: peer.newId(),
          type: "Wobble",
          actor: mallory.id,
          object: alice.account.uri,
        },
      },
    ];
    for (const { body, raw } of bodies) {
      const res = await peer.send(inbox, body, {
        signer: mallory,
        ...(raw === undefined ? {} : { rawBody: raw }),
      });
      await res.text();
      if (raw === "{not json") assert.equal(res.status, 400);
      assert.ok(res.status < 500, `${raw ?? JSON.stringify(body)} answered ${res.status}`);
    }
    await settle(server);
    assert.equal(await followersOf(alice.account.id), before);
    assert.equal((await server.wren.ctx.storage.reports.list({ limit: 10 })).length, 0);
  });
});
