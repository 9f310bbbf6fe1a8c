// The notification policy (GET/PATCH /api/v{1,2}/notifications/policy) and the notification
// requests it makes: which notifications each rule holds back or drops, that held ones stay out
// of the lists and counts, and accepting (they come back, the sender passes from then on) and
// dismissing (they are deleted). Every answer is checked against Mastodon's entities.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUsers, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { movableClock } from "../polls/helpers.ts";
import { act, call, callV2, type Json, links, postStatus, summary } from "./helpers.ts";

const DAY = 24 * 60 * 60 * 1000;

describe("notification policy and requests", () => {
  const clock = movableClock();
  let server: TestServer;

  before(async () => {
    server = await startTestServer({}, { clock });
  });
  after(() => server.close());

  const dm = (from: TestUser, to: TestUser, text = "psst", extra = {}) =>
    postStatus(server, from, `@${to.account.username} ${text}`, { visibility: "direct", ...extra });
  const requests = (user: TestUser, query = ""): Promise<Json[]> =>
    call(server, "GET", `/api/v1/notifications/requests${query}`, { token: user.token });
  const policy = (user: TestUser, version = "v2"): Promise<Json> =>
    call(server, "GET", `/api/${version}/notifications/policy`, { token: user.token });
  const patch = (user: TestUser, json: unknown, version = "v2", expected = 200): Promise<Json> =>
    call(
      server,
      "PATCH",
      `/api/${version}/notifications/policy`,
      { token: user.token, json },
      expected,
    );
  const unread = async (user: TestUser) =>
    (await call(server, "GET", "/api/v1/notifications/unread_count", { token: user.token })).count;
  /** POST to an endpoint documented as answering `{}` (an error body on failure). */
  async function post(user: TestUser, path: string, json?: unknown, expected = 200) {
    const res = await server.request(path, {
      method: "POST",
      token: user.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(json ?? {}),
    });
    const body: Json = await res.json();
    assert.equal(res.status, expected, `POST ${path}: ${JSON.stringify(body)}`);
    if (expected === 200) assert.deepEqual(body, {});
    else assert.equal(typeof body.error, "string");
    return body;
  }

  it("answers Mastodon's defaults: only unsolicited private mentions and limited accounts filtered", async () => {
    const [alice] = await createUsers(server, "defaults");
    assert.deepEqual(await policy(alice), {
      for_not_following: "accept",
      for_not_followers: "accept",
      for_new_accounts: "accept",
      for_private_mentions: "filter",
      for_limited_accounts: "filter",
      summary: { pending_requests_count: 0, pending_notifications_count: 0 },
    });
    assert.deepEqual(await policy(alice, "v1"), {
      filter_not_following: false,
      filter_not_followers: false,
      filter_new_accounts: false,
      filter_private_mentions: true,
      summary: { pending_requests_count: 0, pending_notifications_count: 0 },
    });
  });

  it("holds back a private mention from a stranger, out of every list and count, in a request", async () => {
    const [alice, bob] = await createUsers(server, "pm_alice", "pm_bob");
    const secret = await dm(bob, alice);
    const again = await dm(bob, alice, "still there?");
    const open = await postStatus(server, bob, "@pm_alice in public");
    assert.deepEqual(await summary(server, alice), [`mention:pm_bob:${open.id}`]);
    assert.equal(await unread(alice), 1);
    const grouped = await callV2(server, alice, "/api/v2/notifications");
    assert.deepEqual(
      grouped.notification_groups.map((g: Json) => g.status_id),
      [open.id],
    );

    const [request] = await requests(alice);
    assert.equal(request.account.id, bob.account.id);
    assert.equal(request.notifications_count, "2");
    assert.equal(request.last_status.id, again.id);
    assert.ok(request.created_at <= request.updated_at);
    const one = await call(server, "GET", `/api/v1/notifications/requests/${request.id}`, {
      token: alice.token,
    });
    assert.deepEqual(one, request);
    assert.deepEqual((await policy(alice)).summary, {
      pending_requests_count: 1,
      pending_notifications_count: 2,
    });
    assert.ok(secret.id);
  });

  it("lets through a private reply to the recipient's own private mention, and anyone followed", async () => {
    const [alice, bob, carol] = await createUsers(server, "rp_alice", "rp_bob", "rp_carol");
    const first = await dm(alice, bob, "hello bob");
    const reply = await dm(bob, alice, "hi back", { in_reply_to_id: first.id });
    await act(server, alice, `/api/v1/accounts/${carol.account.id}/follow`);
    const fromFollowed = await dm(carol, alice);
    assert.deepEqual(await summary(server, alice), [
      `mention:rp_carol:${fromFollowed.id}`,
      `mention:rp_bob:${reply.id}`,
    ]);
    assert.deepEqual(await requests(alice), []);
  });

  it("filters or drops what each rule names, as set with PATCH", async () => {
    const [alice, bob, carol] = await createUsers(server, "pt_alice", "pt_bob", "pt_carol");
    const status = await postStatus(server, alice, "like me");
    const changed = await patch(alice, {
      for_not_following: "filter",
      for_private_mentions: "accept",
    });
    assert.equal(changed.for_not_following, "filter");
    assert.equal(changed.for_private_mentions, "accept");
    assert.equal(changed.for_limited_accounts, "filter", "fields not sent stay");
    await act(server, bob, `/api/v1/statuses/${status.id}/favourite`);
    assert.deepEqual(await summary(server, alice), []);
    assert.equal((await requests(alice))[0]?.account.id, bob.account.id);

    await patch(alice, { for_not_following: "drop" });
    await act(server, carol, `/api/v1/statuses/${status.id}/favourite`);
    assert.deepEqual(await summary(server, alice), []);
    assert.deepEqual(
      (await requests(alice)).map((r) => r.account.id),
      [bob.account.id],
      "a dropped notification makes no request",
    );
    assert.equal((await policy(alice)).for_not_following, "drop", "the policy is kept");

    // Poll ends and edits are never filtered; follows of someone followed pass.
    await act(server, alice, `/api/v1/accounts/${carol.account.id}/follow`);
    await act(server, carol, `/api/v1/statuses/${status.id}/reblog`);
    assert.deepEqual(await summary(server, alice), [`reblog:pt_carol:${status.id}`]);
  });

  it("leaves held notifications out of the groups they would join", async () => {
    const [alice, bob, carol] = await createUsers(server, "gr_alice", "gr_bob", "gr_carol");
    const status = await postStatus(server, alice, "group me");
    await act(server, alice, `/api/v1/accounts/${bob.account.id}/follow`);
    await patch(alice, { for_not_following: "filter" });
    await act(server, bob, `/api/v1/statuses/${status.id}/favourite`);
    await act(server, carol, `/api/v1/statuses/${status.id}/favourite`);
    const grouped = await callV2(server, alice, "/api/v2/notifications?types[]=favourite");
    const [group] = grouped.notification_groups;
    assert.equal(grouped.notification_groups.length, 1);
    assert.equal(group.notifications_count, 1);
    assert.deepEqual(group.sample_account_ids, [bob.account.id]);
    const one = await callV2(server, alice, `/api/v2/notifications/${group.group_key}`);
    assert.deepEqual(one.notification_groups[0].sample_account_ids, [bob.account.id]);
    const [held] = await requests(alice);
    await callV2(server, alice, `/api/v2/notifications/ungrouped-${held.id}`, 404);
  });

  it("counts a follower only after three days, and an account as new for thirty", async () => {
    const [alice, bob] = await createUsers(server, "age_alice", "age_bob");
    const status = await postStatus(server, alice, "old enough?");
    await patch(alice, { for_not_followers: "filter", for_private_mentions: "accept" });
    await act(server, bob, `/api/v1/accounts/${alice.account.id}/follow`);
    await act(server, bob, `/api/v1/statuses/${status.id}/favourite`);
    assert.deepEqual(await summary(server, alice), [], "a fresh follower is filtered");
    assert.equal((await requests(alice))[0]?.notifications_count, "2", "the follow and the like");

    clock.advance(3 * DAY + 1);
    await act(server, bob, `/api/v1/statuses/${status.id}/reblog`);
    assert.deepEqual(await summary(server, alice), [`reblog:age_bob:${status.id}`]);

    await patch(alice, { for_not_followers: "accept", for_new_accounts: "filter" });
    const [newcomer] = await createUsers(server, "age_newcomer");
    await act(server, newcomer, `/api/v1/statuses/${status.id}/favourite`);
    assert.equal((await summary(server, alice)).length, 1, "the new account is filtered");
    clock.advance(30 * DAY);
    await act(server, newcomer, `/api/v1/statuses/${status.id}/reblog`);
    assert.deepEqual((await summary(server, alice))[0], `reblog:age_newcomer:${status.id}`);
  });

  it("accepting brings the held notifications back and lets the sender through from then on", async () => {
    const [alice, bob] = await createUsers(server, "ac_alice", "ac_bob");
    const first = await dm(bob, alice, "one");
    const second = await dm(bob, alice, "two");
    const [request] = await requests(alice);
    assert.deepEqual(await post(alice, `/api/v1/notifications/requests/${request.id}/accept`), {});
    assert.deepEqual(await summary(server, alice), [
      `mention:ac_bob:${second.id}`,
      `mention:ac_bob:${first.id}`,
    ]);
    assert.equal(await unread(alice), 2);
    assert.deepEqual(await requests(alice), []);
    const merged = await call(server, "GET", "/api/v1/notifications/requests/merged", {
      token: alice.token,
    });
    assert.deepEqual(merged, { merged: true });
    const third = await dm(bob, alice, "three");
    assert.equal((await summary(server, alice))[0], `mention:ac_bob:${third.id}`);
    assert.deepEqual(await requests(alice), []);
    // No longer a request: 404 for the old id.
    await post(alice, `/api/v1/notifications/requests/${request.id}/accept`, undefined, 404);
  });

  it("merged is false while an accepted sender still has held notifications", async () => {
    const [alice, bob] = await createUsers(server, "mg_alice", "mg_bob");
    const merged = async () =>
      (
        await call(server, "GET", "/api/v1/notifications/requests/merged", {
          token: alice.token,
        })
      ).merged;
    await dm(bob, alice);
    const [request] = await requests(alice);
    assert.equal(await merged(), true, "nothing accepted yet");
    await post(alice, `/api/v1/notifications/requests/${request.id}/accept`);
    assert.equal(await merged(), true);
    // As if the release had not run yet (a crash before it; the job runner finishes it).
    const { storage, ids } = server.wren.ctx;
    const shown = (await storage.notifications.listFor(alice.account.id, { limit: 1 }))[0];
    assert.ok(shown);
    await storage.notifications.put({ ...shown, id: ids.next(), filtered: true });
    assert.equal(await merged(), false);
    const [again] = await requests(alice);
    await post(alice, `/api/v1/notifications/requests/${again.id}/accept`);
    assert.equal(await merged(), true);
  });

  it("dismissing deletes the held notifications; the sender stays filtered", async () => {
    const [alice, bob] = await createUsers(server, "dm_alice", "dm_bob");
    await dm(bob, alice, "one");
    const [request] = await requests(alice);
    assert.deepEqual(await post(alice, `/api/v1/notifications/requests/${request.id}/dismiss`), {});
    assert.deepEqual(await requests(alice), []);
    await call(server, "GET", `/api/v1/notifications/${request.id}`, { token: alice.token }, 404);
    assert.deepEqual((await policy(alice)).summary, {
      pending_requests_count: 0,
      pending_notifications_count: 0,
    });
    await dm(bob, alice, "two");
    assert.deepEqual(await summary(server, alice), []);
    assert.equal((await requests(alice)).length, 1, "a new request");
  });

  it("accepts and dismisses in bulk with id[], skipping ids that are not pending requests", async () => {
    const [alice, bob, carol, dave] = await createUsers(server, "bk_a", "bk_b", "bk_c", "bk_d");
    const fromBob = await dm(bob, alice);
    await dm(carol, alice);
    await dm(dave, alice);
    const pending = await requests(alice);
    assert.equal(pending.length, 3);
    const idOf = (user: TestUser) => pending.find((r) => r.account.id === user.account.id)?.id;
    assert.deepEqual(
      await post(alice, "/api/v1/notifications/requests/accept", { id: [idOf(bob), "12345"] }),
      {},
    );
    assert.deepEqual(await summary(server, alice), [`mention:bk_b:${fromBob.id}`]);
    await post(alice, "/api/v1/notifications/requests/dismiss", { id: [idOf(carol), idOf(dave)] });
    assert.deepEqual(await requests(alice), []);
    assert.deepEqual(await summary(server, alice), [`mention:bk_b:${fromBob.id}`]);
  });

  it("pages requests newest first with Link headers", async () => {
    const [alice, bob, carol] = await createUsers(server, "pg_a", "pg_b", "pg_c");
    await dm(bob, alice);
    await dm(carol, alice);
    const res = await server.request("/api/v1/notifications/requests?limit=1", {
      token: alice.token,
    });
    const [newest] = (await res.json()) as Json[];
    assert.equal(newest.account.id, carol.account.id);
    const next = new URL(links(res).next as string);
    const [older] = await requests(alice, next.search);
    assert.equal(older.account.id, bob.account.id);
    const [back] = await requests(alice, `?min_id=${older.id}`);
    assert.equal(back.id, newest.id);
  });

  it("answers bad input with a 4xx error, and another user's request as missing", async () => {
    const [alice, bob, eve] = await createUsers(server, "er_a", "er_b", "er_e");
    const bad = await patch(alice, { for_not_following: "ignore" }, "v2", 422);
    assert.equal(typeof bad.error, "string");
    await patch(alice, { filter_not_following: "perhaps" }, "v1", 422);
    await post(alice, "/api/v1/notifications/requests/accept", {}, 422);
    await call(server, "GET", "/api/v1/notifications/requests/99999", { token: alice.token }, 404);
    await dm(bob, alice);
    const [request] = await requests(alice);
    await call(
      server,
      "GET",
      `/api/v1/notifications/requests/${request.id}`,
      { token: eve.token },
      404,
    );
    await post(eve, `/api/v1/notifications/requests/${request.id}/dismiss`, undefined, 404);
    assert.equal((await requests(alice)).length, 1);
  });

  it("v1 switches set filter or accept", async () => {
    const [alice] = await createUsers(server, "v1_a");
    const answer = await patch(
      alice,
      { filter_not_following: true, filter_private_mentions: false },
      "v1",
    );
    assert.equal(answer.filter_not_following, true);
    assert.equal(answer.filter_private_mentions, false);
    const v2 = await policy(alice);
    assert.equal(v2.for_not_following, "filter");
    assert.equal(v2.for_private_mentions, "accept");
  });

  it("needs read:notifications to read and write:notifications to change", async () => {
    const reader = await createUserWithToken(server, "sc_reader", ["read:notifications"]);
    const writer = await createUserWithToken(server, "sc_writer", ["write:notifications"]);
    const other = await createUserWithToken(server, "sc_other", [
      "read:statuses",
      "write:statuses",
    ]);
    await policy(reader);
    await requests(reader);
    await patch(reader, { for_new_accounts: "filter" }, "v2", 403);
    await post(reader, "/api/v1/notifications/requests/dismiss", { id: ["1"] }, 403);
    await call(server, "GET", "/api/v2/notifications/policy", { token: writer.token }, 403);
    await patch(writer, { for_new_accounts: "filter" });
    await call(server, "GET", "/api/v1/notifications/requests", { token: other.token }, 403);
    await call(server, "GET", "/api/v1/notifications/requests", {}, 401);
  });
});
