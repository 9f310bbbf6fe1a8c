// A peer that stays down longer than deliveries are held (ADR 12, HELD_DELIVERY_TTL_MS): every
// look at it fails, the held deliveries look again less and less often, and three days after
// they were first held they are dropped and logged, never sent; once the peer answers again,
// new posts reach it.
//
// No real three days: the queue runs on a clock the test moves, and Fedify's circuit breaker,
// which reads the system clock (Temporal.Now, hence Date.now), sees the system clock moved by the
// same amount (the global Date, replaced for this file). Signatures are made and checked on that
// moved clock too, so they stay fresh.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { HELD_DELIVERY_TTL_MS } from "../../src/federation/outbox/held-deliveries.ts";
import { setupLogging, shutdownLogging } from "../../src/logging.ts";
import { call } from "../graph/helpers.ts";
import type { TestUser } from "../helpers/accounts.ts";
import { circuitState, queuedDeliveries } from "../helpers/federation.ts";
import type { TestServer } from "../helpers/server.ts";
import { movableClock } from "../polls/helpers.ts";
import { startFollowedByPeer } from "./followed-by-peer.ts";
import type { RecordingPeer } from "./recording-peer.ts";

// Five failures open the circuit (delivery-policy.ts).
const POSTS = 6;

const RealDate = Date;
let shift = 0;
/** The system clock moved by `shift`: `Date.now()` and `new Date()` (the signatures' Date). */
class ShiftedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + shift);
    else super(...(args as [string]));
  }
  static override now(): number {
    return RealDate.now() + shift;
  }
}

describe("a peer down for longer than deliveries are held", () => {
  const clock = movableClock(new RealDate().toISOString());
  /** Moves the queue's clock and the system clock Fedify reads, together. */
  const advance = (ms: number) => {
    clock.advance(ms);
    shift += ms;
  };
  let server: TestServer;
  let peer: RecordingPeer;
  let alice: TestUser;

  before(async () => {
    globalThis.Date = ShiftedDate as DateConstructor;
    ({ server, peer, alice } = await startFollowedByPeer(clock));
  });

  after(async () => {
    await server?.close();
    await peer?.close();
    globalThis.Date = RealDate;
  });

  const post = async (text: string) => {
    const res = await call(server, "POST", "/api/v1/statuses", alice.token, { status: text });
    assert.equal(res.status, 200, "the local post does not depend on the peer");
    await server.wren.jobs.runDue();
    return res.body.uri as string;
  };
  const creates = () =>
    peer.deliveries.filter((d) => d.activity.type === "Create").map((d) => d.activity.object.id);

  /**
   * Runs `work` with the operator's log (warnings and up, text on stderr) and returns what it
   * wrote; the log's sink writes synchronously.
   */
  async function logOf(work: () => Promise<void>): Promise<string> {
    let logged = "";
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      logged += String(chunk);
      return true;
    }) as typeof process.stderr.write;
    try {
      await setupLogging({ logFormat: "text", logLevel: "warning" });
      await work();
      return logged;
    } finally {
      await shutdownLogging();
      process.stderr.write = write;
    }
  }

  test("drops the held deliveries after three days, then delivers again once it is back", async () => {
    peer.failWith(503);
    const lost: string[] = [];
    for (let i = 1; i <= POSTS; i++) lost.push(await post(`lost ${i}`));
    assert.equal((await queuedDeliveries(server)).length, POSTS);
    // Open, or already probing again: the probe window here is 50 ms of real time, which six
    // posts on a loaded machine can outlast. Either way the deliveries are held, not sent.
    assert.ok(
      ["open", "half-open"].includes((await circuitState(server, peer.host)) ?? "closed"),
      "the circuit is open",
    );

    const start = clock.now().getTime();
    const triedBefore = peer.attempts.length;
    let looks = 0;
    const logged = await logOf(async () => {
      // From one due look to the next: each one probes the peer (503 again) and holds the
      // delivery anew, until the hold has lasted three days.
      for (;;) {
        const waiting = await queuedDeliveries(server);
        if (waiting.length === 0) break;
        assert.ok(++looks <= POSTS * 40, "the deliveries are still held after 40 looks each");
        const next = Math.min(...waiting.map((d) => Date.parse(d.job.runAt)));
        advance(Math.max(0, next - clock.now().getTime()));
        await server.wren.jobs.runDue();
      }
    });
    const held = clock.now().getTime() - start;
    assert.ok(held >= HELD_DELIVERY_TTL_MS, `dropped after ${held / 3600_000} hours`);
    assert.ok(held < HELD_DELIVERY_TTL_MS + 24 * 3600_000, `held ${held / 3600_000} hours`);
    assert.ok(peer.attempts.length > triedBefore, "the peer was tried while down");
    // Each look at one delivery is one step here: about 16 each (1, 1, 2, 4… minutes, then
    // every 12 hours), not one every few seconds.
    assert.ok(looks <= POSTS * 20, `few looks over three days (${looks} for ${POSTS})`);
    assert.deepEqual(
      creates().filter((id) => lost.includes(id)),
      [],
    );
    const drops = logged.match(/Gave up on Create \S+ to \S+: its host stayed unreachable/g);
    assert.equal(drops?.length, POSTS, logged);

    // Back: the next post's delivery is the probe that closes the circuit.
    peer.failWith(null);
    const back = await post("back again");
    for (let tries = 0; !creates().includes(back); tries++) {
      assert.ok(tries < 50, "the post after the outage never arrived");
      advance(60_000);
      await server.wren.jobs.runDue();
    }
    assert.equal(await circuitState(server, peer.host), undefined, "the circuit is closed");
    assert.deepEqual(
      creates().filter((id) => lost.includes(id)),
      [],
      "nothing dropped comes back",
    );
  });
});
