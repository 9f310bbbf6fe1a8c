// GET /api/v1/polls/:id and POST /api/v1/polls/:id/votes: visibility, every refusal with
// Mastodon's message, counts, what each viewer sees, hide_totals, and concurrent votes.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { DomainEvent } from "../../src/domain/events.ts";
import { createUsers, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, follow, type Json } from "../statuses/helpers.ts";
import { getPoll, MINUTE, movableClock, postPoll, vote } from "./helpers.ts";

const ENDED = "Validation failed: The poll has already ended";
const ALREADY = "Validation failed: You have already voted on this poll";
const NO_OPTION = "Validation failed: The chosen vote option does not exist";
const OWN = "Validation failed: You cannot vote in your own polls";

describe("polls: reading and voting", () => {
  const clock = movableClock();
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  const events: DomainEvent[] = [];
  before(async () => {
    server = await startTestServer({}, { clock });
    [alice, bob, carol, dave] = await createUsers(server, "alice", "bob", "carol", "dave");
    server.wren.ctx.events.subscribe("test-recorder", async (event) => {
      if (event.type.startsWith("poll.")) events.push(event);
    });
  });
  after(() => server.close());

  async function refusal(user: TestUser, pollId: string, choices: unknown): Promise<string> {
    return (await vote(server, user, pollId, choices, 422)).error;
  }

  describe("GET /api/v1/polls/:id", () => {
    it("serves a public status's poll without a token, without viewer fields", async () => {
      const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
      const body = await getPoll(server, null, poll.id);
      assertMatchesSchema(body, "Poll");
      assert.equal(body.id, poll.id);
      assert.equal("voted" in body, false);
      assert.equal("own_votes" in body, false);
      const withToken = await getPoll(server, bob, poll.id);
      assert.equal(withToken.voted, false);
      assert.deepEqual(withToken.own_votes, []);
    });

    it("hides a private status's poll from strangers and anonymous readers (404)", async () => {
      const { poll } = await postPoll(
        server,
        alice,
        { options: ["a", "b"], expires_in: 300 },
        { visibility: "private" },
      );
      assert.equal((await getPoll(server, carol, poll.id, 404)).error, "Record not found");
      await getPoll(server, null, poll.id, 404);
      await follow(server, dave, alice);
      assert.equal((await getPoll(server, dave, poll.id)).id, poll.id);
      // Voting on what one cannot see is the same 404.
      assert.equal((await vote(server, carol, poll.id, [0], 404)).error, "Record not found");
      const fromFollower = await vote(server, dave, poll.id, [0]);
      assert.deepEqual(fromFollower.own_votes, [0]);
    });

    it("shows a direct status's poll to those mentioned only", async () => {
      const { poll } = await postPoll(
        server,
        alice,
        { options: ["a", "b"], expires_in: 300 },
        { status: "@bob which?", visibility: "direct" },
      );
      await getPoll(server, bob, poll.id);
      await getPoll(server, carol, poll.id, 404);
    });

    it("answers 404 for an unknown poll", async () => {
      await getPoll(server, bob, "999999", 404);
    });
  });

  describe("POST /api/v1/polls/:id/votes", () => {
    it("records a single-choice vote with the counts and the voter's flags", async () => {
      events.length = 0;
      const { poll } = await postPoll(server, alice, {
        options: ["a", "b", "c"],
        expires_in: 300,
      });
      const body = await vote(server, bob, poll.id, [1]);
      assertMatchesSchema(body, "Poll");
      assert.equal(body.votes_count, 1);
      assert.equal(body.voters_count, 1);
      assert.deepEqual(
        body.options.map((o: Json) => o.votes_count),
        [0, 1, 0],
      );
      assert.equal(body.voted, true);
      assert.deepEqual(body.own_votes, [1]);

      const second = await vote(server, carol, poll.id, ["2"]);
      assert.equal(second.votes_count, 2);
      assert.equal(second.voters_count, 2);
      assert.deepEqual(second.own_votes, [2]);
      // Each viewer sees their own choices.
      assert.deepEqual((await getPoll(server, bob, poll.id)).own_votes, [1]);
      const asDave = await getPoll(server, dave, poll.id);
      assert.equal(asDave.voted, false);
      assert.deepEqual(asDave.own_votes, []);
      const asAuthor = await getPoll(server, alice, poll.id);
      assert.equal(asAuthor.voted, true);
      assert.deepEqual(asAuthor.own_votes, []);

      assert.equal(events.length, 2);
      const first = events[0] as Extract<DomainEvent, { type: "poll.voted" }>;
      assert.equal(first.type, "poll.voted");
      assert.equal(first.voterId, bob.account.id);
      assert.deepEqual(first.choices, [1]);
      assert.equal(first.poll.votesCount, 1);
    });

    it("takes choices[] from a form body too", async () => {
      const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
      const path = `/api/v1/polls/${poll.id}/votes`;
      const res = await server.request(path, {
        method: "POST",
        token: bob.token,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "choices[]=0",
      });
      const body = (await res.json()) as Json;
      assert.equal(res.status, 200, JSON.stringify(body));
      assertMatchesResponse("POST", path, 200, body);
      assert.deepEqual(body.own_votes, [0]);
    });

    it("refuses a second vote, the author's vote and choices that name no option", async () => {
      const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
      await vote(server, bob, poll.id, [0]);
      assert.equal(await refusal(bob, poll.id, [1]), ALREADY);
      assert.equal(await refusal(alice, poll.id, [0]), OWN);
      assert.equal(await refusal(carol, poll.id, [2]), NO_OPTION);
      assert.equal(await refusal(carol, poll.id, [-1]), NO_OPTION);
      assert.equal(await refusal(carol, poll.id, ["first"]), NO_OPTION);
      // Several problems with one choice are reported together, as Mastodon does.
      assert.equal(
        await refusal(alice, poll.id, [7]),
        "Validation failed: The chosen vote option does not exist, You cannot vote in your own polls",
      );
      const after = await getPoll(server, carol, poll.id);
      assert.equal(after.votes_count, 1);
      assert.equal(after.voted, false);
    });

    it("refuses several choices on a single-choice poll, recording none", async () => {
      const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
      assert.equal(await refusal(bob, poll.id, [0, 1]), ALREADY);
      const after = await getPoll(server, bob, poll.id);
      assert.equal(after.votes_count, 0);
      assert.equal(after.voted, false);
      assert.deepEqual((await vote(server, bob, poll.id, [1])).own_votes, [1]);
    });

    it("counts every choice of a multiple-choice poll and the voter once", async () => {
      const { poll } = await postPoll(server, alice, {
        options: ["a", "b", "c", "d"],
        expires_in: 300,
        multiple: true,
      });
      const body = await vote(server, bob, poll.id, [0, 2]);
      assert.equal(body.votes_count, 2);
      assert.equal(body.voters_count, 1);
      assert.deepEqual(
        body.options.map((o: Json) => o.votes_count),
        [1, 0, 1, 0],
      );
      assert.deepEqual(body.own_votes, [0, 2]);
      // The same choice twice is "already voted"; a new choice is added, as in Mastodon.
      assert.equal(await refusal(bob, poll.id, [2]), ALREADY);
      assert.equal(await refusal(carol, poll.id, [1, 1]), ALREADY);
      const more = await vote(server, bob, poll.id, [3]);
      assert.equal(more.votes_count, 3);
      assert.equal(more.voters_count, 1);
      assert.deepEqual(more.own_votes, [0, 2, 3]);
      const carolVote = await vote(server, carol, poll.id, [2]);
      assert.equal(carolVote.voters_count, 2);
      assert.deepEqual(
        carolVote.options.map((o: Json) => o.votes_count),
        [1, 0, 2, 1],
      );
    });

    it("answers 400 without choices and changes nothing for an empty list", async () => {
      const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
      const missing = await call(
        server,
        "POST",
        `/api/v1/polls/${poll.id}/votes`,
        { token: bob.token, json: {} },
        400,
      );
      assert.equal(missing.error, "param is missing or the value is empty: choices");
      const empty = await vote(server, bob, poll.id, []);
      assert.equal(empty.voted, false);
      assert.equal(empty.votes_count, 0);
    });

    it("refuses a voter who blocks the author (403)", async () => {
      const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
      await call(server, "POST", `/api/v1/accounts/${alice.account.id}/block`, {
        token: carol.token,
      });
      const body = await vote(server, carol, poll.id, [0], 403);
      assert.equal(body.error, "This action is not allowed");
      await call(server, "POST", `/api/v1/accounts/${alice.account.id}/unblock`, {
        token: carol.token,
      });
    });

    it("needs a user token with write:statuses", async () => {
      const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
      const path = `/api/v1/polls/${poll.id}/votes`;
      const anonymous = await server.request(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ choices: [0] }),
      });
      assert.equal(anonymous.status, 401);
      const reader = await createUserWithToken(server, "reader", ["read"]);
      const readOnly = await vote(server, reader, poll.id, [0], 403);
      assert.equal(readOnly.error, "This action is outside the authorized scopes");
    });

    it("accepts exactly one of many concurrent votes by the same account", async () => {
      const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
      const path = `/api/v1/polls/${poll.id}/votes`;
      const attempts = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          server.request(path, {
            method: "POST",
            token: bob.token,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ choices: [i % 2] }),
          }),
        ),
      );
      const statuses = attempts.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 422, 422, 422, 422, 422, 422, 422]);
      const after = await getPoll(server, bob, poll.id);
      assert.equal(after.votes_count, 1);
      assert.equal(after.voters_count, 1);
      assert.equal(after.own_votes.length, 1);
    });

    it("counts every vote when many accounts vote at once", async () => {
      const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
      const voters = await Promise.all(
        Array.from({ length: 6 }, (_, i) => createUserWithToken(server, `crowd${i}`)),
      );
      await Promise.all(voters.map((v, i) => vote(server, v, poll.id, [i % 2])));
      const after = await getPoll(server, null, poll.id);
      assert.equal(after.votes_count, 6);
      assert.equal(after.voters_count, 6);
      assert.deepEqual(
        after.options.map((o: Json) => o.votes_count),
        [3, 3],
      );
    });
  });

  describe("hide_totals", () => {
    it("hides option counts from everyone, the author included, until the poll ends", async () => {
      const status = await postPoll(server, alice, {
        options: ["a", "b"],
        expires_in: 300,
        hide_totals: true,
      });
      const { poll } = status;
      const voted = await vote(server, bob, poll.id, [1]);
      assert.deepEqual(
        voted.options.map((o: Json) => o.votes_count),
        [null, null],
      );
      // The totals over all options still show, as in Mastodon.
      assert.equal(voted.votes_count, 1);
      assert.equal(voted.voters_count, 1);
      for (const viewer of [alice, carol, null]) {
        const seen = await getPoll(server, viewer, poll.id);
        assert.deepEqual(
          seen.options.map((o: Json) => o.votes_count),
          [null, null],
        );
      }
      const inStatus = await call(server, "GET", `/api/v1/statuses/${status.id}`);
      assert.deepEqual(
        inStatus.poll.options.map((o: Json) => o.votes_count),
        [null, null],
      );
      clock.advance(5 * MINUTE);
      const ended = await getPoll(server, carol, poll.id);
      assert.equal(ended.expired, true);
      assert.deepEqual(
        ended.options.map((o: Json) => o.votes_count),
        [0, 1],
      );
    });
  });

  describe("after the deadline", () => {
    it("reads as expired and refuses votes before the expiry job has run", async () => {
      // The runner is paused: any wake-up after the clock moves (on PostgreSQL the notice of a
      // job enqueued elsewhere) would otherwise run the expiry job that is now due.
      await server.wren.jobs.stop();
      try {
        await expiredBeforeTheJob();
      } finally {
        server.wren.jobs.start();
      }
    });
  });

  async function expiredBeforeTheJob() {
    const { poll } = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
    clock.advance(5 * MINUTE - 1);
    assert.equal((await getPoll(server, bob, poll.id)).expired, false);
    clock.advance(1);
    const seen = await getPoll(server, bob, poll.id);
    assert.equal(seen.expired, true);
    assert.equal((await server.wren.ctx.storage.polls.get(poll.id))?.closedAt, null);
    assert.equal(await refusal(bob, poll.id, [0]), ENDED);
    assert.equal(
      await refusal(alice, poll.id, [0]),
      "Validation failed: The poll has already ended, You cannot vote in your own polls",
    );
  }
});
