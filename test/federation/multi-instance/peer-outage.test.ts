// A peer's outage, the whole story (issue 15, items 0 and 5): B stops, alice on A posts seven
// times, A's deliveries to B fail until A's circuit breaker for B opens and holds them; B comes
// back; the first delivery that falls due is tried as a probe, and its success releases every
// other one at once, so all seven posts reach bob without anyone waiting for their own retry.
//
// A's job queue runs on a clock the test moves, so which job falls due is the test's choice.
// Fedify's circuit breaker keeps the system clock: WREN_DELIVERY_PROBE_SECONDS is cut to 2 s so
// that the probe is allowed by the time the test lets a job run (after waiting that long), and
// not before the test has seen the circuit open.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout } from "node:timers/promises";
import type { Job } from "../../../src/domain/job.ts";
import { manualClock } from "../../graph/helpers.ts";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  circuitState,
  eventually,
  followRemote,
  type Instance,
  inHomeTimeline,
  queuedDeliveries,
  startAliceAndBob,
  type TestFederation,
} from "../../helpers/federation.ts";

const POSTS = 7;

/** A's waiting deliveries to `host`. */
async function waitingDeliveries(instance: Instance, host: string): Promise<Job[]> {
  return (await queuedDeliveries(instance)).filter((d) => d.inbox.host === host).map((d) => d.job);
}

describe("a peer's outage", () => {
  const clock = manualClock(new Date().toISOString());
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    ({ federation, a, b, alice, bob } = await startAliceAndBob({
      clocks: [clock],
      // Long enough that no probe goes out before the circuit's state is checked, on a busy
      // machine too (a probe makes it half-open); short enough to wait for below.
      env: { WREN_DELIVERY_PROBE_SECONDS: "2" },
    }));
    await followRemote(b, bob, a, alice);
  });
  after(() => federation.close());

  it("holds deliveries while the peer is down and sends every one once it answers", async () => {
    await b.stop();
    const posted: string[] = [];
    for (let i = 1; i <= POSTS; i++) {
      const status = await api(a, alice.token, "POST", "/api/v1/statuses", {
        status: `Post ${i} while B is down`,
      });
      posted.push(status.uri);
    }
    // Every first attempt fails (nothing listens on B's port); five failures open the circuit,
    // and each delivery waits in A's queue, for a retry or held.
    const waiting = await eventually(async () => {
      const jobs = await waitingDeliveries(a, b.domain);
      assert.equal(jobs.length, POSTS, "every delivery waits");
      assert.ok(
        jobs.every((job) => Date.parse(job.runAt) > clock.now().getTime()),
        "none is due yet",
      );
      return jobs;
    });
    assert.equal(await circuitState(a, b.domain), "open", JSON.stringify(waiting));

    await b.start();
    // The probe delay runs on the system clock (Fedify's): let it pass.
    await setTimeout(2200);
    // Only the earliest delivery falls due: it is the probe. The others are due later.
    const times = waiting.map((job) => Date.parse(job.runAt)).sort((x, y) => x - y);
    const first = times[0] as number;
    assert.ok(
      times.some((t) => t > first),
      "some deliveries are due later than the probe",
    );
    clock.advance((first - clock.now().getTime()) / 1000);
    await a.wren.jobs.runDue();

    // A bound for a slow machine, not an expectation: they go out at once.
    for (const uri of posted) {
      const copy = await eventually(() => inHomeTimeline(b, bob.token, uri), { timeout: 60_000 });
      assert.equal(copy.account.acct, `alice@${a.domain}`);
    }
    assert.deepEqual(await waitingDeliveries(a, b.domain), []);
    assert.equal(await circuitState(a, b.domain), undefined, "the circuit is closed again");

    // Nothing is held any more: a new post goes out at once.
    const after = await api(a, alice.token, "POST", "/api/v1/statuses", { status: "B is back" });
    await eventually(() => inHomeTimeline(b, bob.token, after.uri));
  });
});
