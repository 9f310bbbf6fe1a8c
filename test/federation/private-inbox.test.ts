// Deliveries leave through Fedify's own fetch, outside the address guard of remote fetches: an
// actor whose inbox names a private address (here loopback, where a peer listens) must get
// nothing from a server that does not allow private addresses, and the delivery must not stay
// queued to be retried. outbox.test.ts shows the same peer receiving when they are allowed.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isPublicDestination } from "../../src/federation/safe-fetch.ts";
import { receiveFollow } from "../../src/services/federation/remote-follow.ts";
import { call } from "../graph/helpers.ts";
import { createUserWithToken } from "../helpers/accounts.ts";
import { queuedDeliveries } from "../helpers/federation.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type RecordingPeer, startRecordingPeer } from "./recording-peer.ts";

describe("deliveries to private addresses", () => {
  let server: TestServer;
  let peer: RecordingPeer;

  before(async () => {
    peer = await startRecordingPeer();
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
    await peer?.close();
  });

  it("are dropped, not sent and not retried", async () => {
    const alice = await createUserWithToken(server, "alice");
    const bob = await peer.addAccount(server, "bob");
    await receiveFollow(server.wren.ctx, bob, alice.account, `${bob.uri}#follow`);
    const res = await call(server, "POST", "/api/v1/statuses", alice.token, {
      status: "hello followers",
    });
    assert.equal(res.status, 200);
    // Twice: the fan-out queues the deliveries, the next round would run them.
    await server.wren.jobs.runDue();
    await server.wren.jobs.runDue();
    assert.deepEqual(peer.deliveries, []);
    assert.deepEqual(await queuedDeliveries(server), []);
  });

  it("tells public destinations from private ones", async () => {
    const resolveTo = (address: string) => async () => [{ address, family: 4 }];
    assert.equal(await isPublicDestination("https://127.0.0.1/inbox"), false);
    assert.equal(await isPublicDestination("https://localhost/inbox"), false);
    assert.equal(await isPublicDestination("https://[::1]/inbox"), false);
    assert.equal(await isPublicDestination("ftp://example.com/inbox"), false);
    assert.equal(await isPublicDestination("not a url"), false);
    assert.equal(
      await isPublicDestination("https://peer.example/inbox", resolveTo("10.0.0.7")),
      false,
    );
    assert.equal(
      await isPublicDestination("https://peer.example/inbox", resolveTo("93.184.215.14")),
      true,
    );
  });
});
