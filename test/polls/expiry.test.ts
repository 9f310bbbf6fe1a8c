// The "poll.expire" job: driven by a clock the test moves, run with runDue(); it closes the
// poll once, announces poll.expired once, survives a restart, follows deadline edits and keeps
// quiet about deleted posts.

import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { DomainEvent } from "../../src/domain/events.ts";
import { expirePoll } from "../../src/services/polls/expire-poll.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call } from "../statuses/helpers.ts";
import { getPoll, MINUTE, type MovableClock, movableClock, postPoll, vote } from "./helpers.ts";

type Expired = Extract<DomainEvent, { type: "poll.expired" }>;

describe("poll expiry job", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function setUp(): Promise<{
    server: TestServer;
    clock: MovableClock;
    alice: TestUser;
    bob: TestUser;
    expired: Expired[];
  }> {
    const clock = movableClock();
    const s = await startTestServer({}, { clock });
    server = s;
    const expired: Expired[] = [];
    s.wren.ctx.events.subscribe("test-recorder", async (event) => {
      if (event.type === "poll.expired") expired.push(event);
    });
    return {
      server: s,
      clock,
      alice: await createUserWithToken(s, "alice"),
      bob: await createUserWithToken(s, "bob"),
      expired,
    };
  }

  it("closes the poll at its deadline and announces it once", async () => {
    const { server, clock, alice, bob, expired } = await setUp();
    const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 600 });
    await vote(server, bob, poll.id, [0]);

    clock.advance(9 * MINUTE);
    await server.wren.jobs.runDue();
    assert.equal((await server.wren.ctx.storage.polls.get(poll.id))?.closedAt, null);
    assert.equal(expired.length, 0);

    clock.advance(MINUTE);
    assert.ok((await server.wren.jobs.runDue()) >= 1);
    const closed = await server.wren.ctx.storage.polls.get(poll.id);
    assert.equal(closed?.closedAt, clock.now().toISOString());
    assert.equal(expired.length, 1);
    assert.equal(expired[0]?.poll.id, poll.id);
    assert.equal(expired[0]?.poll.votesCount, 1);
    const seen = await getPoll(server, bob, poll.id);
    assert.equal(seen.expired, true);
    assert.deepEqual(seen.own_votes, [0]);
    const refused = await vote(server, bob, poll.id, [1], 422);
    assert.equal(
      refused.error,
      "Validation failed: The poll has already ended, You have already voted on this poll",
    );

    // Running again, or the handler itself again, changes nothing and announces nothing.
    clock.advance(MINUTE);
    await server.wren.jobs.runDue();
    await expirePoll(server.wren.ctx, poll.id);
    assert.equal(expired.length, 1);
    assert.equal((await server.wren.ctx.storage.polls.get(poll.id))?.closedAt, closed?.closedAt);
  });

  it("survives a restart between posting and the deadline", async () => {
    const { server, clock, alice } = await setUp();
    const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
    await server.restart();
    const expired: Expired[] = [];
    server.wren.ctx.events.subscribe("test-recorder", async (event) => {
      if (event.type === "poll.expired") expired.push(event);
    });
    clock.advance(6 * MINUTE);
    await server.wren.jobs.runDue();
    const closed = await server.wren.ctx.storage.polls.get(poll.id);
    assert.equal(closed?.closedAt, clock.now().toISOString());
    assert.equal(expired.length, 1);
  });

  it("follows an edit that moves the deadline later", async () => {
    const { server, clock, alice, expired } = await setUp();
    const status = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
    await call(server, "PUT", `/api/v1/statuses/${status.id}`, {
      token: alice.token,
      json: { status: "Which one?", poll: { options: ["a", "b"], expires_in: 900 } },
    });
    // The first schedule falls due but the poll is still open: nothing happens.
    clock.advance(6 * MINUTE);
    await server.wren.jobs.runDue();
    assert.equal((await server.wren.ctx.storage.polls.get(status.poll.id))?.closedAt, null);
    assert.equal((await getPoll(server, alice, status.poll.id)).expired, false);
    assert.equal(expired.length, 0);
    clock.advance(10 * MINUTE);
    await server.wren.jobs.runDue();
    assert.notEqual((await server.wren.ctx.storage.polls.get(status.poll.id))?.closedAt, null);
    assert.equal(expired.length, 1);
  });

  it("announces nothing for a poll whose status was deleted", async () => {
    const { server, clock, alice, expired } = await setUp();
    const status = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
    await call(server, "DELETE", `/api/v1/statuses/${status.id}`, { token: alice.token });
    clock.advance(6 * MINUTE);
    await server.wren.jobs.runDue();
    assert.equal(expired.length, 0);
    // The job is done with, not left failing.
    assert.equal(await server.wren.jobs.runDue(), 0);
  });
});
