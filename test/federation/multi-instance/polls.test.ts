// A vote in a remote poll: alice (A) votes in bob's poll (B); the vote counts on bob's server,
// and the new counts come back to A.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { TestUser } from "../../helpers/accounts.ts";
import {
  api,
  eventually,
  followRemote,
  type Instance,
  inHomeTimeline,
  startAliceAndBob,
  type TestFederation,
} from "../../helpers/federation.ts";

describe("polls across servers", () => {
  let federation: TestFederation;
  let a: Instance;
  let b: Instance;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    ({ federation, a, b, alice, bob } = await startAliceAndBob());
    await followRemote(a, alice, b, bob);
  });
  after(() => federation.close());

  it("counts a vote from the other server on the poll's own server", async () => {
    const posted = await api(b, bob.token, "POST", "/api/v1/statuses", {
      status: "Tea or coffee?",
      poll: { options: ["Tea", "Coffee"], expires_in: 86400 },
    });
    const copy = await eventually(() => inHomeTimeline(a, alice.token, posted.uri));
    assert.ok(copy.poll, "the remote copy is a poll");
    assert.deepEqual(
      copy.poll.options.map((o: { title: string }) => o.title),
      ["Tea", "Coffee"],
    );
    assert.equal(copy.poll.votes_count, 0);

    const voted = await api(a, alice.token, "POST", `/api/v1/polls/${copy.poll.id}/votes`, {
      choices: [1],
    });
    assert.equal(voted.voted, true);
    assert.deepEqual(voted.own_votes, [1]);

    await eventually(async () => {
      const origin = await api(b, bob.token, "GET", `/api/v1/polls/${posted.poll.id}`);
      assert.equal(origin.votes_count, 1);
      assert.equal(origin.voters_count, 1);
      assert.deepEqual(
        origin.options.map((o: { votes_count: number }) => o.votes_count),
        [0, 1],
      );
    });
    // The vote is not a post of alice's on B: no status from her there.
    const context = await api(b, bob.token, "GET", `/api/v1/statuses/${posted.id}/context`);
    assert.deepEqual(context.descendants, []);
    // B sends the new counts (Update of the Question) back to A.
    await eventually(async () => {
      const mirror = await api(a, alice.token, "GET", `/api/v1/polls/${copy.poll.id}`);
      assert.equal(mirror.votes_count, 1);
      assert.deepEqual(
        mirror.options.map((o: { votes_count: number }) => o.votes_count),
        [0, 1],
      );
      assert.equal(mirror.voted, true);
    });
  });
});
