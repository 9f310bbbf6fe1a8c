// Deliveries go through the address guard of remote fetches (ADR 0040): an actor whose inbox
// names a private address (here loopback, where a peer listens) must get nothing from a server
// that does not allow private addresses, and the delivery must not stay queued to be retried.
// outbox.test.ts shows the same peer receiving when they are allowed; deliver-message.test.ts
// covers names that resolve to private addresses.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { receiveFollow } from "../../src/services/remote/remote-follow.ts";
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
    assert.deepEqual(peer.attempts, [], "never even connected to");
    assert.deepEqual(await queuedDeliveries(server), []);
  });
});
