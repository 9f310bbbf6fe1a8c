// A peer that answers 503 for a while, then 202 (issue 15, items 0 and 5): its deliveries are
// held once the circuit breaker opens, and the first one that falls due after it answers again
// is the probe whose success sends all the others, each exactly once.
//
// The queue runs on a clock the test moves; Fedify's circuit breaker keeps the system clock, so
// WREN_DELIVERY_PROBE_SECONDS is cut to 50 ms (see docs/configuration.md).

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { setTimeout } from "node:timers/promises";
import { call } from "../graph/helpers.ts";
import type { TestUser } from "../helpers/accounts.ts";
import { circuitState, eventually, queuedDeliveries } from "../helpers/federation.ts";
import type { TestServer } from "../helpers/server.ts";
import { movableClock } from "../polls/helpers.ts";
import { startFollowedByPeer } from "./followed-by-peer.ts";
import type { RecordingPeer } from "./recording-peer.ts";

const POSTS = 6;

describe("a peer answering 503 for a while", () => {
  const clock = movableClock(new Date().toISOString());
  let server: TestServer;
  let peer: RecordingPeer;
  let alice: TestUser;

  before(async () => {
    ({ server, peer, alice } = await startFollowedByPeer(clock));
  });

  after(async () => {
    await server?.close();
    await peer?.close();
  });

  test("gets every held delivery, once, as soon as it accepts again", async () => {
    peer.failWith(503);
    const uris: string[] = [];
    for (let i = 1; i <= POSTS; i++) {
      const res = await call(server, "POST", "/api/v1/statuses", alice.token, {
        status: `post ${i}`,
      });
      assert.equal(res.status, 200);
      uris.push(res.body.uri);
      await server.wren.jobs.runDue();
    }
    const waiting = await queuedDeliveries(server);
    assert.equal(waiting.length, POSTS, "every delivery waits, for a retry or held");
    // Open, or already probing again: the probe window here is 50 ms of real time, which the
    // time between a failure and the look that follows it can outlast on a loaded machine.
    assert.ok(
      ["open", "half-open"].includes((await circuitState(server, peer.host)) ?? "closed"),
      "the circuit is open",
    );

    peer.failWith(null);
    // The probe delay runs on the system clock (Fedify's): let it pass.
    await setTimeout(200);
    const first = Math.min(...waiting.map((d) => Date.parse(d.job.runAt)));
    assert.ok(
      waiting.some((d) => Date.parse(d.job.runAt) > first),
      "some are due later",
    );
    clock.advance(first - clock.now().getTime());
    await server.wren.jobs.runDue();

    const creates = () =>
      peer.deliveries
        .filter((d) => d.activity.type === "Create")
        .map((d) => d.activity.object.id as string);
    // A bound for a slow machine, not an expectation: they go out at once.
    await eventually(() => assert.deepEqual(creates().toSorted(), uris.toSorted()), {
      timeout: 60_000,
    });
    assert.deepEqual(await queuedDeliveries(server), []);
    assert.equal(await circuitState(server, peer.host), undefined, "the circuit is closed again");
    await server.wren.jobs.runDue();
    assert.equal(creates().length, POSTS, "none was sent twice");
  });
});
