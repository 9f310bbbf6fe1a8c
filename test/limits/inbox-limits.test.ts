// Limits on the inboxes: every POST counts against the client address; accepted deliveries
// count against the sending server, and a forger naming another server's key spends nothing of
// that server's budget.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  AS_CONTEXT,
  type FakeActor,
  type FakePeer,
  startFakePeer,
} from "../federation/fake-peer.ts";
import { createUserWithToken } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

function like(peer: FakePeer, actor: FakeActor, object: string) {
  return { "@context": AS_CONTEXT, id: peer.newId("likes"), type: "Like", actor: actor.id, object };
}

describe("inbox limits per sending server", () => {
  const LIMIT = 3;
  let server: TestServer;
  let peer: FakePeer;
  let other: FakePeer;
  let mallory: FakeActor;
  let trent: FakeActor;
  before(async () => {
    server = await startTestServer({
      WREN_ALLOW_PRIVATE_ADDRESSES: "true",
      WREN_INBOX_SENDER_RATE_LIMIT_REQUESTS: String(LIMIT),
    });
    await createUserWithToken(server, "alice");
    peer = await startFakePeer();
    other = await startFakePeer();
    mallory = await peer.actor("mallory");
    trent = await other.actor("trent");
  });
  after(async () => {
    await peer.close();
    await other.close();
    await server.close();
  });

  it("refuses a server's deliveries past its budget, to either inbox, not another's", async () => {
    const object = `${server.url}/users/alice`;
    // A forged signature naming the peer's key is refused and costs the peer nothing.
    const forged = await other.send(`${server.url}/inbox`, like(other, trent, object), {
      keyId: mallory.keyId,
    });
    await forged.body?.cancel();
    assert.ok(forged.status >= 400 && forged.status < 500 && forged.status !== 429);

    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      const inbox = i % 2 === 0 ? `${server.url}/inbox` : `${server.url}/users/alice/inbox`;
      const res = await peer.send(inbox, like(peer, mallory, object));
      await res.body?.cancel();
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [...Array(LIMIT).fill(202), 429]);
    const res = await other.send(`${server.url}/inbox`, like(other, trent, object));
    await res.body?.cancel();
    assert.equal(res.status, 202);
  });
});

describe("inbox limits per client address", () => {
  const LIMIT = 4;
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ WREN_INBOX_RATE_LIMIT_REQUESTS: String(LIMIT) });
  });
  after(() => server.close());

  it("counts every POST, signed or not, and answers 429 past the limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      const res = await server.request(i % 2 === 0 ? "/inbox" : "/users/nobody/inbox", {
        method: "POST",
        headers: { "content-type": "application/activity+json" },
        body: JSON.stringify({ type: "Like" }),
      });
      await res.body?.cancel();
      statuses.push(res.status);
    }
    assert.equal(statuses.at(-1), 429);
    assert.ok(
      statuses.slice(0, LIMIT).every((status) => status !== 429),
      String(statuses),
    );
    // Another address has its own budget.
    const elsewhere = await server.request("/inbox", {
      method: "POST",
      headers: { "content-type": "application/activity+json", "x-forwarded-for": "203.0.113.9" },
      body: JSON.stringify({ type: "Like" }),
    });
    await elsewhere.body?.cancel();
    assert.notEqual(elsewhere.status, 429);
  });
});
