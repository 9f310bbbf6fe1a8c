// API v2 grouped notifications: favourites, boosts and follows close in time form one group
// with a count and sample accounts; grouped_types[] turns grouping off per type; single group,
// its accounts, dismissal, the unread group count, paging, and the twelve-hour group span.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { movableClock } from "../polls/helpers.ts";
import {
  act,
  call,
  callEmpty,
  callV2,
  type Json,
  links,
  notifications,
  postStatus,
} from "./helpers.ts";

const HOUR = 3_600_000;

describe("GET /api/v2/notifications", () => {
  const clock = movableClock("2030-01-01T00:10:00.000Z");
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let status: Json;
  let mention: Json;

  before(async () => {
    server = await startTestServer({}, { clock });
    [alice, bob, carol, dave] = await createUsers(server, "alice", "bob", "carol", "dave");
    status = await postStatus(server, alice, "group me");
    for (const user of [bob, carol, dave]) {
      await act(server, user, `/api/v1/statuses/${status.id}/favourite`);
      clock.advance(60_000);
    }
    mention = await postStatus(server, bob, "@alice look");
    await act(server, bob, `/api/v1/accounts/${alice.account.id}/follow`);
    await act(server, carol, `/api/v1/accounts/${alice.account.id}/follow`);
  });
  after(() => server.close());

  it("groups three favourites of one status, and the follows", async () => {
    const body = await callV2(server, alice, "/api/v2/notifications");
    const groups: Json[] = body.notification_groups;
    assert.deepEqual(
      groups.map((g) => [g.type, g.notifications_count]),
      [
        ["follow", 2],
        ["mention", 1],
        ["favourite", 3],
      ],
    );
    const favourites = groups[2];
    const v1 = await notifications(server, alice, "?types[]=favourite");
    assert.equal(favourites.group_key, v1[0].group_key);
    assert.match(favourites.group_key, new RegExp(`^favourite-${status.id}-[0-9]+$`));
    assert.equal(favourites.status_id, status.id);
    assert.deepEqual(
      favourites.sample_account_ids,
      [dave, carol, bob].map((u) => u.account.id),
    );
    assert.equal(favourites.most_recent_notification_id, v1[0].id);
    assert.equal(favourites.page_max_id, v1[0].id);
    assert.equal(favourites.page_min_id, v1[2].id);
    assert.equal(favourites.latest_page_notification_at, v1[0].created_at);

    assert.equal(groups[1].group_key, `ungrouped-${groups[1].most_recent_notification_id}`);
    assert.equal(groups[1].status_id, mention.id);
    assert.equal("status_id" in groups[0], false);

    // Every referenced account and status comes once, at the root.
    assert.deepEqual(
      body.accounts.map((a: Json) => a.id).sort(),
      [bob, carol, dave].map((u) => u.account.id).sort(),
    );
    assert.deepEqual(body.statuses.map((s: Json) => s.id).sort(), [mention.id, status.id].sort());
  });

  it("leaves types out of grouped_types[] ungrouped", async () => {
    const body = await callV2(server, alice, "/api/v2/notifications?grouped_types[]=follow");
    const groups: Json[] = body.notification_groups;
    assert.deepEqual(
      groups.map((g) => [g.type, g.notifications_count]),
      [
        ["follow", 2],
        ["mention", 1],
        ["favourite", 1],
        ["favourite", 1],
        ["favourite", 1],
      ],
    );
    for (const g of groups.slice(2)) {
      assert.equal(g.group_key, `ungrouped-${g.most_recent_notification_id}`);
    }
  });

  it("filters with types[], exclude_types[] and account_id", async () => {
    const favs = await callV2(server, alice, "/api/v2/notifications?types[]=favourite");
    assert.deepEqual(
      favs.notification_groups.map((g: Json) => g.type),
      ["favourite"],
    );
    const noFav = await callV2(server, alice, "/api/v2/notifications?exclude_types[]=favourite");
    assert.deepEqual(
      noFav.notification_groups.map((g: Json) => g.type),
      ["follow", "mention"],
    );
    const fromDave = await callV2(
      server,
      alice,
      `/api/v2/notifications?account_id=${dave.account.id}`,
    );
    assert.deepEqual(
      fromDave.notification_groups.map((g: Json) => g.type),
      ["favourite"],
    );
  });

  it("pages by groups with Link headers", async () => {
    const res = await server.request("/api/v2/notifications?limit=2", { token: alice.token });
    const first: Json = await res.json();
    assert.deepEqual(
      first.notification_groups.map((g: Json) => g.type),
      ["follow", "mention"],
    );
    const next = links(res).next as string;
    assert.match(next, /max_id=/);
    const second = await callV2(server, alice, new URL(next).pathname + new URL(next).search);
    assert.deepEqual(
      second.notification_groups.map((g: Json) => [g.type, g.notifications_count]),
      [["favourite", 3]],
    );
  });

  it("shows one group, its accounts, and counts unread groups", async () => {
    const favs = await notifications(server, alice, "?types[]=favourite");
    const key = favs[0].group_key;
    const one = await callV2(server, alice, `/api/v2/notifications/${key}`);
    assert.equal(one.notification_groups.length, 1);
    const [group] = one.notification_groups;
    assert.equal(group.notifications_count, 3);
    assert.equal("page_min_id" in group, false, "page fields only in paged lists");
    assert.equal(one.statuses[0].id, status.id);

    const accounts: Json[] = await call(server, "GET", `/api/v2/notifications/${key}/accounts`, {
      token: alice.token,
    });
    assert.deepEqual(
      accounts.map((a) => a.username),
      ["dave", "carol", "bob"],
    );

    await callV2(server, bob, `/api/v2/notifications/${key}`, 404);
    await callV2(server, alice, "/api/v2/notifications/favourite-1-1", 404);
    await callV2(server, alice, "/api/v2/notifications/ungrouped-1", 404);

    const unread = () =>
      call(server, "GET", "/api/v2/notifications/unread_count", { token: alice.token });
    assert.deepEqual(await unread(), { count: 3 });
    assert.deepEqual(
      await call(server, "GET", "/api/v2/notifications/unread_count?grouped_types[]=follow", {
        token: alice.token,
      }),
      { count: 5 },
    );
    await call(server, "POST", "/api/v1/markers", {
      token: alice.token,
      json: { notifications: { last_read_id: favs[0].id } },
    });
    assert.deepEqual(await unread(), { count: 2 });
  });

  it("starts a new group once a group spans twelve hours", async () => {
    clock.advance(13 * HOUR);
    const [erin] = await createUsers(server, "erin");
    await act(server, erin, `/api/v1/statuses/${status.id}/favourite`);
    const body = await callV2(server, alice, "/api/v2/notifications?types[]=favourite");
    assert.deepEqual(
      body.notification_groups.map((g: Json) => g.notifications_count),
      [1, 3],
    );
    assert.notEqual(body.notification_groups[0].group_key, body.notification_groups[1].group_key);

    // Crossing an hour boundary does not split a young group: it keeps its starting hour.
    clock.advance(40 * 60_000); // 13:53
    await act(server, bob, `/api/v1/statuses/${status.id}/reblog`);
    clock.advance(20 * 60_000); // 14:13, the next hour
    await act(server, carol, `/api/v1/statuses/${status.id}/reblog`);
    const boosts = await notifications(server, alice, "?types[]=reblog");
    assert.equal(boosts.length, 2);
    assert.notEqual(
      new Date(boosts[0].created_at).getUTCHours(),
      new Date(boosts[1].created_at).getUTCHours(),
    );
    assert.equal(boosts[0].group_key, boosts[1].group_key);
  });

  it("dismisses a whole group", async () => {
    const favs = await notifications(server, alice, "?types[]=favourite");
    const key = favs[1].group_key;
    await callEmpty(server, bob, `/api/v2/notifications/${key}/dismiss`);
    assert.equal((await notifications(server, alice, "?types[]=favourite")).length, 4);
    await callEmpty(server, alice, `/api/v2/notifications/${key}/dismiss`);
    const left = await notifications(server, alice, "?types[]=favourite");
    assert.deepEqual(
      left.map((n: Json) => n.account.username),
      ["erin"],
    );
    const ungrouped = (await notifications(server, alice, "?types[]=mention"))[0];
    await callEmpty(server, alice, `/api/v2/notifications/ungrouped-${ungrouped.id}/dismiss`);
    assert.deepEqual(await notifications(server, alice, "?types[]=mention"), []);
  });
});
