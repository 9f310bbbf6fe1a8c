// Attaching a poll to a status: the three body encodings, every rule with Mastodon's message,
// the poll inside the Status entity, and editing (votes kept or reset) and deleting.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, type Json } from "../statuses/helpers.ts";
import { getPoll, MINUTE, movableClock, postPoll, vote } from "./helpers.ts";

const STATUSES = "/api/v1/statuses";

describe("polls on POST /api/v1/statuses", () => {
  const clock = movableClock();
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer({}, { clock });
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
  });
  after(() => server.close());

  async function refused(poll: unknown, extra: Record<string, unknown> = {}): Promise<string> {
    const body = await call(
      server,
      "POST",
      STATUSES,
      { token: alice.token, json: { status: "Q?", poll, ...extra } },
      422,
    );
    return body.error;
  }

  it("creates a poll from a JSON body, with booleans as strings too", async () => {
    const status = await postPoll(server, alice, {
      options: ["Tea", "Coffee", "Water"],
      expires_in: 600,
      multiple: true,
      hide_totals: "false",
    });
    const { poll } = status;
    assertMatchesSchema(poll, "Poll");
    assert.match(poll.id, /^\d+$/);
    assert.equal(poll.expires_at, new Date(clock.now().getTime() + 600_000).toISOString());
    assert.equal(poll.expired, false);
    assert.equal(poll.multiple, true);
    assert.equal(poll.votes_count, 0);
    assert.equal(poll.voters_count, 0);
    assert.deepEqual(poll.options, [
      { title: "Tea", votes_count: 0 },
      { title: "Coffee", votes_count: 0 },
      { title: "Water", votes_count: 0 },
    ]);
    assert.deepEqual(poll.emojis, []);
    // The author counts as having voted, as in Mastodon, with no choices of their own.
    assert.equal(poll.voted, true);
    assert.deepEqual(poll.own_votes, []);

    const stored = await server.wren.ctx.storage.statuses.get(status.id);
    assert.equal(stored?.pollId, poll.id);
    const record = await server.wren.ctx.storage.polls.get(poll.id);
    assert.equal(record?.statusId, status.id);
    assert.equal(record?.accountId, alice.account.id);
  });

  it("creates a poll from a url-encoded form", async () => {
    const res = await server.request(STATUSES, {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "status=Form&poll[options][]=Yes&poll[options][]=No&poll[expires_in]=300&poll[multiple]=0&poll[hide_totals]=1",
    });
    const body = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(body));
    assertMatchesResponse("POST", STATUSES, 200, body);
    assert.deepEqual(
      body.poll.options.map((o: Json) => o.title),
      ["Yes", "No"],
    );
    assert.equal(body.poll.multiple, false);
    // hide_totals: the counts are hidden while the poll runs.
    assert.deepEqual(
      body.poll.options.map((o: Json) => o.votes_count),
      [null, null],
    );
    assert.equal(body.poll.expires_at, new Date(clock.now().getTime() + 300_000).toISOString());
  });

  it("creates a poll from a multipart body", async () => {
    const data = new FormData();
    data.set("status", "Multipart");
    data.append("poll[options][]", "Left");
    data.append("poll[options][]", "Right");
    data.set("poll[expires_in]", "3600");
    data.set("poll[multiple]", "true");
    const res = await server.request(STATUSES, { method: "POST", token: alice.token, body: data });
    const body = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(body));
    assertMatchesResponse("POST", STATUSES, 200, body);
    assert.equal(body.poll.multiple, true);
    assert.deepEqual(
      body.poll.options.map((o: Json) => o.title),
      ["Left", "Right"],
    );
  });

  it("strips options and drops blank ones", async () => {
    const { poll } = await postPoll(server, alice, {
      options: ["  a ", "", "   ", "b"],
      expires_in: 300,
    });
    assert.deepEqual(
      poll.options.map((o: Json) => o.title),
      ["a", "b"],
    );
  });

  it("counts option length in characters as read (graphemes)", async () => {
    const thumbs = "👍🏽".repeat(50);
    const { poll } = await postPoll(server, alice, { options: [thumbs, "x"], expires_in: 300 });
    assert.equal(poll.options[0].title, thumbs);
    assert.equal(
      await refused({ options: ["y".repeat(51), "x"], expires_in: 300 }),
      "Validation failed: Choices cannot be longer than 50 characters each",
    );
  });

  it("refuses too few, too many and duplicate options", async () => {
    assert.equal(
      await refused({ options: ["only"], expires_in: 300 }),
      "Validation failed: Choices must have more than one item",
    );
    assert.equal(
      await refused({ expires_in: 300 }),
      "Validation failed: Choices can't be blank, Choices must have more than one item",
    );
    assert.equal(
      await refused({ options: ["a", "b", "c", "d", "e"], expires_in: 300 }),
      "Validation failed: Choices can't contain more than 4 items",
    );
    assert.equal(
      await refused({ options: ["same", " same "], expires_in: 300 }),
      "Validation failed: Choices contain duplicate items",
    );
  });

  it("accepts a deadline from 5 minutes to a month, and refuses others", async () => {
    await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
    await postPoll(server, alice, { options: ["a", "b"], expires_in: "2629746" });
    assert.equal(
      await refused({ options: ["a", "b"], expires_in: 299 }),
      "Validation failed: Deadline is too soon",
    );
    assert.equal(
      await refused({ options: ["a", "b"], expires_in: 2_629_747 }),
      "Validation failed: Deadline is too far into the future",
    );
    assert.equal(
      await refused({ options: ["a", "b"] }),
      "Validation failed: Deadline can't be blank, Deadline is too far into the future",
    );
    assert.match(await refused({ options: ["a", "b"], expires_in: "soon" }), /^Validation failed/);
    assert.match(
      await refused({ options: ["a", "b"], expires_in: 300, multiple: "perhaps" }),
      /^Validation failed/,
    );
  });

  it("refuses a poll together with media, as Mastodon does", async () => {
    assert.equal(
      await refused({ options: ["a", "b"], expires_in: 300 }, { media_ids: ["123"] }),
      "Validation failed: Cannot attach more than 4 files",
    );
  });

  it("still needs text next to a poll", async () => {
    assert.equal(
      await refused({ options: ["a", "b"], expires_in: 300 }, { status: "" }),
      "Validation failed: Text can't be blank",
    );
  });

  it("stores nothing when the poll is refused", async () => {
    const before = await server.wren.ctx.storage.statuses.countByAccount(alice.account.id);
    await refused({ options: ["only"], expires_in: 300 });
    const afterCount = await server.wren.ctx.storage.statuses.countByAccount(alice.account.id);
    assert.equal(afterCount, before);
  });

  it("shows the poll in the Status entity for each viewer", async () => {
    const status = await postPoll(server, alice, { options: ["x", "y"], expires_in: 300 });
    await vote(server, bob, status.poll.id, [1]);
    const asBob = await call(server, "GET", `${STATUSES}/${status.id}`, { token: bob.token });
    assert.equal(asBob.poll.id, status.poll.id);
    assert.equal(asBob.poll.voted, true);
    assert.deepEqual(asBob.poll.own_votes, [1]);
    assert.equal(asBob.poll.votes_count, 1);
    const anonymous = await call(server, "GET", `${STATUSES}/${status.id}`);
    assert.equal("voted" in anonymous.poll, false);
    assert.equal("own_votes" in anonymous.poll, false);
    assert.deepEqual(
      anonymous.poll.options.map((o: Json) => o.votes_count),
      [0, 1],
    );
    // Timelines carry it too.
    const timeline = await call(server, "GET", "/api/v1/timelines/public", { token: bob.token });
    const inTimeline = timeline.find((s: Json) => s.id === status.id);
    assert.deepEqual(inTimeline.poll, asBob.poll);
  });

  it("answers a deletion with the poll, for delete and redraft", async () => {
    const status = await postPoll(server, alice, { options: ["keep", "drop"], expires_in: 300 });
    const deleted = await call(server, "DELETE", `${STATUSES}/${status.id}`, {
      token: alice.token,
    });
    assert.deepEqual(
      deleted.poll.options.map((o: Json) => o.title),
      ["keep", "drop"],
    );
    await getPoll(server, alice, status.poll.id, 404);
  });
});

describe("polls on PUT /api/v1/statuses/:id", () => {
  const clock = movableClock();
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer({}, { clock });
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
  });
  after(() => server.close());

  function edit(id: string, params: Record<string, unknown>, expected = 200): Promise<Json> {
    return call(server, "PUT", `${STATUSES}/${id}`, { token: alice.token, json: params }, expected);
  }

  it("keeps the votes when only the deadline or hide_totals change", async () => {
    const status = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
    await vote(server, bob, status.poll.id, [0]);
    clock.advance(MINUTE);
    const edited = await edit(status.id, {
      status: "Which one?",
      poll: { options: ["a", "b"], expires_in: 3600, hide_totals: true },
    });
    assert.equal(edited.poll.id, status.poll.id);
    assert.equal(edited.poll.expires_at, new Date(clock.now().getTime() + 3600_000).toISOString());
    assert.equal(edited.poll.votes_count, 1);
    assert.equal(edited.poll.voters_count, 1);
    assert.deepEqual(
      edited.poll.options.map((o: Json) => o.votes_count),
      [null, null],
    );
    assert.notEqual(edited.edited_at, null);
    const asBob = await getPoll(server, bob, status.poll.id);
    assert.deepEqual(asBob.own_votes, [0]);
  });

  it("resets the votes when the options change", async () => {
    const status = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
    await vote(server, bob, status.poll.id, [1]);
    const edited = await edit(status.id, {
      status: "Which one?",
      poll: { options: ["a", "b", "c"], expires_in: 300 },
    });
    assert.equal(edited.poll.votes_count, 0);
    assert.equal(edited.poll.voters_count, 0);
    assert.deepEqual(edited.poll.options, [
      { title: "a", votes_count: 0 },
      { title: "b", votes_count: 0 },
      { title: "c", votes_count: 0 },
    ]);
    const asBob = await getPoll(server, bob, status.poll.id);
    assert.equal(asBob.voted, false);
    assert.deepEqual(asBob.own_votes, []);
    // Bob may vote again on the new choices.
    const again = await vote(server, bob, status.poll.id, [2]);
    assert.deepEqual(again.own_votes, [2]);
  });

  it("resets the votes when single choice becomes multiple choice", async () => {
    const status = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
    await vote(server, bob, status.poll.id, [1]);
    const edited = await edit(status.id, {
      poll: { options: ["a", "b"], expires_in: 300, multiple: true },
    });
    assert.equal(edited.poll.multiple, true);
    assert.equal(edited.poll.votes_count, 0);
  });

  it("keeps the poll when an edit does not mention it, and adds one to a plain status", async () => {
    const status = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
    const textOnly = await edit(status.id, { status: "Reworded?" });
    assert.equal(textOnly.poll.id, status.poll.id);

    const plain = await call(server, "POST", STATUSES, {
      token: alice.token,
      json: { status: "no poll yet" },
    });
    assert.equal(plain.poll, null);
    const withPoll = await edit(plain.id, {
      status: "now a poll",
      poll: { options: ["y", "n"], expires_in: 600 },
    });
    assert.deepEqual(
      withPoll.poll.options.map((o: Json) => o.title),
      ["y", "n"],
    );
    assert.equal((await server.wren.ctx.storage.statuses.get(plain.id))?.pollId, withPoll.poll.id);
  });

  it("refuses an invalid poll in an edit", async () => {
    const status = await postPoll(server, alice, { options: ["a", "b"], expires_in: 300 });
    const body = await edit(status.id, { poll: { options: ["a"], expires_in: 300 } }, 422);
    assert.equal(body.error, "Validation failed: Choices must have more than one item");
    const unchanged = await getPoll(server, alice, status.poll.id);
    assert.equal(unchanged.options.length, 2);
  });
});
