// Activities that reuse an id (issue 14, item 13): Hollo gives every Accept of one follower
// the same id and every poll-count Update of a poll the same id. Each such activity is a new
// one and is acted on; only a copy of the very same activity (same id, same body) is dropped.
// A real Wren server, a loopback peer with real keys, real signed HTTP deliveries.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { AS_CONTEXT, type FakePeer, startFakePeer } from "./fake-peer.ts";
import { activity, api, createNote, deliver, remoteAccount, statusByUri } from "./inbox-helpers.ts";

describe("inbox: activities that reuse an id", () => {
  let server: TestServer;
  let peer: FakePeer;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" });
    peer = await startFakePeer();
    alice = await createUserWithToken(server, "alice", ["read", "write", "follow"]);
  });

  after(async () => {
    await server.close();
    await peer.close();
  });

  const relationship = async (id: string) =>
    (await api(server, "GET", `/api/v1/accounts/relationships?id[]=${id}`, alice.token))[0];

  it("follows again after an unfollow when the new Accept has the old Accept's id", async () => {
    const hollo = await peer.actor("hollo");
    await deliver(server, peer, activity(peer, hollo, "Follow", { object: alice.account.uri }));
    const account = await remoteAccount(server, hollo);
    // Hollo's Accept id is the same for every Accept of one follower.
    const acceptId = `${hollo.id}#accepts/${encodeURIComponent(alice.account.uri)}`;
    const acceptOf = (followUri: string) => ({
      "@context": AS_CONTEXT,
      id: acceptId,
      type: "Accept",
      actor: hollo.id,
      object: { id: followUri, type: "Follow", actor: alice.account.uri, object: hollo.id },
    });
    const followAndAccept = async () => {
      await api(server, "POST", `/api/v1/accounts/${account.id}/follow`, alice.token);
      const request = await server.wren.ctx.storage.followRequests.get(
        alice.account.id,
        account.id,
      );
      assert.ok(request?.uri, "a pending request");
      await deliver(server, peer, acceptOf(request.uri));
      return request.uri;
    };

    const firstFollow = await followAndAccept();
    assert.equal((await relationship(account.id)).following, true);
    await api(server, "POST", `/api/v1/accounts/${account.id}/unfollow`, alice.token);
    assert.equal((await relationship(account.id)).following, false);

    const secondFollow = await followAndAccept();
    assert.notEqual(secondFollow, firstFollow, "each follow has its own id");
    const rel = await relationship(account.id);
    assert.equal(rel.following, true, "the second Accept (same id, new Follow) is acted on");
    assert.equal(rel.requested, false);
  });

  it("applies every Update that reuses an id, and drops an identical redelivery", async () => {
    const poller = await peer.actor("poller");
    const { create, note } = createNote(peer, poller, { cc: [alice.account.uri] });
    await deliver(server, peer, create);
    assert.ok(await statusByUri(server, note.id));
    // One Update id for every edit, as Hollo does for a poll's counts.
    const updateId = `${note.id}#update`;
    const updateTo = (text: string, minutes: number) => ({
      "@context": AS_CONTEXT,
      id: updateId,
      type: "Update",
      actor: poller.id,
      object: {
        ...note,
        content: `<p>${text}</p>`,
        updated: new Date(Date.now() + minutes * 60_000).toISOString(),
      },
    });
    const content = async () => (await statusByUri(server, note.id))?.contentHtml ?? "";

    const second = updateTo("Second version", 1);
    await deliver(server, peer, second);
    assert.match(await content(), /Second version/);
    await deliver(server, peer, updateTo("Third version", 2));
    assert.match(await content(), /Third version/, "a new Update with a used id is applied");

    // The very same Update delivered again (a replay, or the peer's retry) changes nothing,
    // though what it says would win if it were acted on (its `updated` is made newest).
    const replayed = updateTo("Replayed version", 3);
    await deliver(server, peer, replayed);
    assert.match(await content(), /Replayed version/);
    await deliver(server, peer, updateTo("Fourth version", 4));
    assert.match(await content(), /Fourth version/);
    await deliver(server, peer, replayed);
    assert.match(await content(), /Fourth version/, "an identical redelivery is dropped");
  });
});
