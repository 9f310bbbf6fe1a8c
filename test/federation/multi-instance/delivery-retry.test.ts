// A delivery to a server that is down is retried from the durable queue, also across a restart
// of the sender: B is stopped, alice posts on A, A restarts, B comes back on the same port with
// the same data, A's clock passes the retry delay, and the post reaches bob's home timeline.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Job } from "../../../src/domain/job.ts";
import { manualClock } from "../../graph/helpers.ts";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  followRemote,
  type Instance,
  inHomeTimeline,
  queuedDeliveries,
  startAliceAndBob,
  type TestFederation,
} from "../../helpers/federation.ts";

/** A's waiting retries of deliveries (Fedify outbox messages that failed at least once). */
async function waitingRetries(instance: Instance): Promise<Job[]> {
  return (await queuedDeliveries(instance)).filter((d) => d.attempt > 0).map((d) => d.job);
}

describe("delivery to a server that is down", () => {
  // A's clock moves by hand, so the retry runs when the test says; B keeps real time.
  const clock = manualClock(new Date().toISOString());
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    ({ federation, a, b, alice, bob } = await startAliceAndBob({ clocks: [clock] }));
    await followRemote(b, bob, a, alice);
  });
  after(() => federation.close());

  it("is retried and arrives after the peer is back, across a restart of the sender", async () => {
    await b.stop();
    const posted = await api(a, alice.token, "POST", "/api/v1/statuses", {
      status: "Posted while B was down",
    });
    // The first attempt fails (nothing listens on B's port) and leaves a retry for later.
    const [retry] = await eventually(async () => {
      const retries = await waitingRetries(a);
      assert.equal(retries.length, 1, "one delivery waits for its retry");
      return retries;
    });
    assert.ok(Date.parse((retry as Job).runAt) > clock.now().getTime(), "the retry waits");

    await a.restart();
    await b.start();
    assert.equal((await waitingRetries(a)).length, 1, "the retry survived the restart");

    clock.advance((Date.parse((retry as Job).runAt) - clock.now().getTime()) / 1000 + 1);
    await a.wren.jobs.runDue();
    const copy = await eventually(() => inHomeTimeline(b, bob.token, posted.uri));
    assert.match(copy.content, /Posted while B was down/);
    assert.equal(copy.account.acct, `alice@${a.domain}`);
    assert.deepEqual(await waitingRetries(a), []);
  });
});
