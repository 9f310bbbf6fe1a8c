// The story of issue 4, end to end over HTTP with a movable clock: A follows B; B posts a public
// poll mentioning A and sends A a direct message; A votes, favourites and boosts the poll; the
// poll ends (the clock moves, the due job runs). Then every account's notifications, markers and
// conversations must be exactly what Mastodon would show. The second run restarts the server
// between the poll and its end: the durable job still fires and nothing is lost.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { callV2 } from "../notifications/helpers.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
type Json = any;

const START = Date.parse("2026-05-01T10:00:00.000Z");
const POLL_SECONDS = 3600;

interface Story {
  server: TestServer;
  /** Moves the clock forward. */
  tick(ms?: number): void;
  a: TestUser;
  b: TestUser;
  /** A bystander who takes part in nothing. */
  c: TestUser;
}

async function call(
  story: Story,
  user: TestUser,
  method: string,
  path: string,
  body?: unknown,
): Promise<Json> {
  story.tick();
  const init: RequestInit & { token: string } = { method, token: user.token };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json" };
  }
  const res = await story.server.request(path, init);
  const json: Json = await res.json();
  assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(json)}`);
  assertMatchesResponse(method, path.split("?")[0] as string, 200, json);
  return json;
}

async function startStory(): Promise<Story> {
  let now = START;
  const server = await startTestServer({}, { clock: { now: () => new Date(now) } });
  const story: Story = {
    server,
    tick: (ms = 1000) => {
      now += ms;
    },
    a: await createUserWithToken(server, "alice"),
    b: await createUserWithToken(server, "bob"),
    c: await createUserWithToken(server, "carol"),
  };
  return story;
}

/** The first half: everything up to the poll's end. Answers the poll status and the DM. */
async function actOut(story: Story): Promise<{ pollStatus: Json; dm: Json }> {
  const { a, b } = story;
  const followed = await call(story, a, "POST", `/api/v1/accounts/${b.account.id}/follow`);
  assert.equal(followed.following, true);

  const pollStatus = await call(story, b, "POST", "/api/v1/statuses", {
    status: "@alice tea or coffee?",
    visibility: "public",
    poll: { options: ["tea", "coffee"], expires_in: POLL_SECONDS },
  });
  assert.equal(pollStatus.poll.expired, false);
  assert.deepEqual(
    pollStatus.mentions.map((m: Json) => m.id),
    [a.account.id],
  );

  const dm = await call(story, b, "POST", "/api/v1/statuses", {
    status: "@alice between us: coffee",
    visibility: "direct",
  });

  const voted = await call(story, a, "POST", `/api/v1/polls/${pollStatus.poll.id}/votes`, {
    choices: [1],
  });
  assert.equal(voted.voted, true);
  assert.deepEqual(voted.own_votes, [1]);

  const favourited = await call(story, a, "POST", `/api/v1/statuses/${pollStatus.id}/favourite`);
  assert.equal(favourited.favourited, true);
  const boosted = await call(story, a, "POST", `/api/v1/statuses/${pollStatus.id}/reblog`);
  assert.equal(boosted.reblog.id, pollStatus.id);
  return { pollStatus, dm };
}

/** Moves past the deadline and runs the due jobs (the poll's end). */
async function endPoll(story: Story): Promise<void> {
  story.tick(POLL_SECONDS * 1000);
  const ran = await story.server.wren.jobs.runDue();
  assert.ok(ran >= 1, "the poll expiry job ran");
}

async function notifications(story: Story, user: TestUser): Promise<Json[]> {
  const list: Json[] = await call(story, user, "GET", "/api/v1/notifications");
  for (const n of list) assertMatchesSchema(n, "Notification");
  return list;
}

const summary = (list: Json[]) =>
  list.map((n) => [n.type, n.account.acct, n.status?.id ?? null] as const);

/** Checks everything the issue promises once the poll has ended. */
async function checkOutcome(story: Story, pollStatus: Json, dm: Json): Promise<void> {
  const { a, b, c } = story;

  // The poll is over, with A's vote counted.
  const poll = await call(story, a, "GET", `/api/v1/polls/${pollStatus.poll.id}`);
  assert.equal(poll.expired, true);
  assert.equal(poll.votes_count, 1);
  assert.equal(poll.voters_count, 1);
  assert.deepEqual(
    poll.options.map((o: Json) => o.votes_count),
    [0, 1],
  );
  assert.deepEqual(poll.own_votes, [1]);

  // B, newest first: the end of their own poll, then A's boost, favourite and follow. A vote
  // notifies nobody (as in Mastodon).
  const forB = await notifications(story, b);
  assert.deepEqual(summary(forB), [
    ["poll", "bob", pollStatus.id],
    ["reblog", "alice", pollStatus.id],
    ["favourite", "alice", pollStatus.id],
    ["follow", "alice", null],
  ]);
  assert.equal(forB[0].status.poll.expired, true);

  // A, newest first: the end of the poll they voted in, then the two mentions.
  const forA = await notifications(story, a);
  assert.deepEqual(summary(forA), [
    ["poll", "bob", pollStatus.id],
    ["mention", "bob", dm.id],
    ["mention", "bob", pollStatus.id],
  ]);
  assert.equal(forA[1].status.visibility, "direct");
  assert.equal(forA[0].status.poll.voted, true);

  assert.deepEqual(await notifications(story, c), []);

  // The grouped view (API v2) shows the same, one group each, in the same order.
  for (const [user, expected] of [
    [b, ["poll", "reblog", "favourite", "follow"]],
    [a, ["poll", "mention", "mention"]],
  ] as const) {
    story.tick();
    const grouped = await callV2(story.server, user, "/api/v2/notifications");
    assert.deepEqual(
      grouped.notification_groups.map((g: Json) => [g.type, g.notifications_count]),
      expected.map((type) => [type, 1]),
    );
  }

  // Without a marker every notification is unread.
  assert.deepEqual(await call(story, a, "GET", "/api/v1/notifications/unread_count"), {
    count: 3,
  });
  assert.deepEqual(await call(story, b, "GET", "/api/v1/notifications/unread_count"), {
    count: 4,
  });

  // Conversations: the direct message shows for both, unread only for A.
  const [convA, ...moreA] = await call(story, a, "GET", "/api/v1/conversations");
  assert.deepEqual(moreA, []);
  assert.equal(convA.unread, true);
  assert.deepEqual(
    convA.accounts.map((x: Json) => x.id),
    [b.account.id],
  );
  assert.equal(convA.last_status.id, dm.id);
  assertMatchesSchema(convA, "Conversation");
  const [convB, ...moreB] = await call(story, b, "GET", "/api/v1/conversations");
  assert.deepEqual(moreB, []);
  assert.equal(convB.unread, false);
  assert.deepEqual(
    convB.accounts.map((x: Json) => x.id),
    [a.account.id],
  );
  assert.equal(convB.last_status.id, dm.id);
  assert.deepEqual(await call(story, c, "GET", "/api/v1/conversations"), []);

  // A reads it: the conversation and the notifications marker say so, and stay so.
  const read = await call(story, a, "POST", `/api/v1/conversations/${convA.id}/read`);
  assert.equal(read.unread, false);
  const saved = await call(story, a, "POST", "/api/v1/markers", {
    notifications: { last_read_id: forA[0].id },
    home: { last_read_id: pollStatus.id },
  });
  assert.equal(saved.notifications.last_read_id, forA[0].id);
  assert.equal(saved.notifications.version, 0);
  assert.equal(saved.home.version, 0);
  const savedB = await call(story, b, "POST", "/api/v1/markers", {
    notifications: { last_read_id: forB[1].id },
  });
  assert.equal(savedB.notifications.version, 0);

  const markersA = await call(
    story,
    a,
    "GET",
    "/api/v1/markers?timeline[]=home&timeline[]=notifications",
  );
  assert.deepEqual(markersA, {
    home: saved.home,
    notifications: saved.notifications,
  });
  const markersB = await call(
    story,
    b,
    "GET",
    "/api/v1/markers?timeline[]=home&timeline[]=notifications",
  );
  assert.deepEqual(markersB, { notifications: savedB.notifications });
  assert.equal((await call(story, a, "GET", "/api/v1/conversations"))[0].unread, false);

  // The badges count from the markers: A has read everything, B all but the poll's end.
  assert.deepEqual(await call(story, a, "GET", "/api/v1/notifications/unread_count"), {
    count: 0,
  });
  assert.deepEqual(await call(story, b, "GET", "/api/v1/notifications/unread_count"), {
    count: 1,
  });
}

describe("issue 4 story: follow, poll, direct message, vote, favourite, boost, poll end", () => {
  let story: Story;
  before(async () => {
    story = await startStory();
  });
  after(() => story.server.close());

  it("shows each account exactly what Mastodon would", async () => {
    const { pollStatus, dm } = await actOut(story);
    // Nothing has ended yet: no poll notifications before the deadline.
    assert.equal((await notifications(story, story.b)).filter((n) => n.type === "poll").length, 0);
    await endPoll(story);
    await checkOutcome(story, pollStatus, dm);

    // Running the jobs again changes nothing: the poll ended once.
    assert.equal(await story.server.wren.jobs.runDue(), 0);
    assert.equal((await notifications(story, story.b)).length, 4);
  });
});

describe("issue 4 story with a restart between the poll and its end", () => {
  let story: Story;
  before(async () => {
    story = await startStory();
  });
  after(() => story.server.close());

  it("still ends the poll after the restart, and loses nothing", async () => {
    const { pollStatus, dm } = await actOut(story);
    story.tick();
    await story.server.restart();
    story.tick();
    // Before the deadline the restarted server has nothing due.
    assert.equal(await story.server.wren.jobs.runDue(), 0);
    await endPoll(story);
    await checkOutcome(story, pollStatus, dm);

    // And the outcome itself survives another restart.
    const before = {
      a: await notifications(story, story.a),
      b: await notifications(story, story.b),
      markers: await call(
        story,
        story.a,
        "GET",
        "/api/v1/markers?timeline[]=home&timeline[]=notifications",
      ),
      conversations: await call(story, story.a, "GET", "/api/v1/conversations"),
    };
    story.tick();
    await story.server.restart();
    assert.deepEqual(await notifications(story, story.a), before.a);
    assert.deepEqual(await notifications(story, story.b), before.b);
    assert.deepEqual(
      await call(story, story.a, "GET", "/api/v1/markers?timeline[]=home&timeline[]=notifications"),
      before.markers,
    );
    assert.deepEqual(
      await call(story, story.a, "GET", "/api/v1/conversations"),
      before.conversations,
    );
  });
});
