// The set-up of the outage tests: a Wren with a movable clock and a quick delivery probe, whose
// alice is followed by bob on a recording peer (the follow accepted and delivered).

import type { Clock } from "../../src/domain/clock.ts";
import { receiveFollow } from "../../src/services/remote/remote-follow.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type RecordingPeer, startRecordingPeer } from "./recording-peer.ts";

export interface FollowedByPeer {
  server: TestServer;
  peer: RecordingPeer;
  alice: TestUser;
}

export async function startFollowedByPeer(clock: Clock): Promise<FollowedByPeer> {
  const peer = await startRecordingPeer();
  const server = await startTestServer(
    { WREN_ALLOW_PRIVATE_ADDRESSES: "true", WREN_DELIVERY_PROBE_SECONDS: "0.05" },
    { clock },
  );
  const alice = await createUserWithToken(server, "alice");
  const bob = await peer.addAccount(server, "bob");
  await receiveFollow(server.wren.ctx, bob, alice.account, `${bob.uri}#follow`);
  await server.wren.jobs.runDue();
  return { server, peer, alice };
}
