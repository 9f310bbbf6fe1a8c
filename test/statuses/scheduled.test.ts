// Scheduled statuses over HTTP: POST /api/v1/statuses with scheduled_at answers a
// ScheduledStatus, the scheduled_statuses API lists, shows, moves and cancels it, and the
// durable job publishes it at its time (with its media and poll) exactly once. Driven by a clock
// the test moves; jobs run with runDue().

import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { SCHEDULED_TOTAL_LIMIT } from "../../src/domain/scheduled-status.ts";
import { PUBLISH_SCHEDULED_JOB } from "../../src/services/scheduled-statuses/publish-job.ts";
import { publishScheduledStatus } from "../../src/services/scheduled-statuses/publish-scheduled.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { storeMedia } from "../media/stored-media.ts";
import { MINUTE, type MovableClock, movableClock } from "../polls/helpers.ts";
import { call, follow, type Json, post } from "./helpers.ts";

const SCHEDULED = "/api/v1/scheduled_statuses";
const START = "2030-01-01T00:00:00.000Z";

/** `minutes` after the test clock's start, as a client writes it. */
const inMinutes = (minutes: number) => new Date(Date.parse(START) + minutes * MINUTE).toISOString();

describe("scheduled statuses", () => {
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
  }> {
    const clock = movableClock(START);
    const s = await startTestServer({}, { clock });
    server = s;
    return {
      server: s,
      clock,
      alice: await createUserWithToken(s, "alice"),
      bob: await createUserWithToken(s, "bob"),
    };
  }

  /** DELETE answers `{}` (documented without a schema); errors are checked by call(). */
  async function cancel(s: TestServer, user: TestUser, id: string, expected = 200) {
    if (expected !== 200)
      return call(s, "DELETE", `${SCHEDULED}/${id}`, { token: user.token }, expected);
    const res = await s.request(`${SCHEDULED}/${id}`, { method: "DELETE", token: user.token });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {});
  }

  const statusesOf = (s: TestServer, user: TestUser): Promise<Json[]> =>
    call(s, "GET", `/api/v1/accounts/${user.account.id}/statuses`, { token: user.token });

  it("answers a ScheduledStatus and publishes it at its time, once", async () => {
    const { server, clock, alice, bob } = await setUp();
    await follow(server, bob, alice);
    const scheduled = await post(server, alice, {
      status: "Good morning, later",
      spoiler_text: "greeting",
      visibility: "unlisted",
      language: "en",
      scheduled_at: inMinutes(60),
    });
    assert.equal(scheduled.scheduled_at, inMinutes(60));
    assert.equal(scheduled.params.text, "Good morning, later");
    assert.equal(scheduled.params.spoiler_text, "greeting");
    assert.equal(scheduled.params.visibility, "unlisted");
    assert.equal(scheduled.params.language, "en");
    assert.equal(scheduled.params.poll, null);
    assert.equal(scheduled.params.media_ids, null);
    assert.equal(scheduled.params.sensitive, null);
    assert.equal(scheduled.params.scheduled_at, null);
    assert.deepEqual(scheduled.media_attachments, []);
    assert.deepEqual(await statusesOf(server, alice), []);

    const shown = await call(server, "GET", `${SCHEDULED}/${scheduled.id}`, {
      token: alice.token,
    });
    assert.deepEqual(shown, scheduled);
    // Another account's scheduled status is not there for them.
    await call(server, "GET", `${SCHEDULED}/${scheduled.id}`, { token: bob.token }, 404);
    assert.deepEqual(await call(server, "GET", SCHEDULED, { token: bob.token }), []);

    clock.advance(59 * MINUTE);
    await server.wren.jobs.runDue();
    assert.deepEqual(await statusesOf(server, alice), []);

    clock.advance(MINUTE);
    await server.wren.jobs.runDue();
    const [published, ...more] = await statusesOf(server, alice);
    assert.equal(more.length, 0);
    assert.equal(published.content, "<p>Good morning, later</p>");
    assert.equal(published.spoiler_text, "greeting");
    assert.equal(published.sensitive, true);
    assert.equal(published.visibility, "unlisted");
    assert.equal(published.language, "en");
    assert.equal(published.created_at, inMinutes(60));
    assert.equal(published.application?.name, alice.app.name);
    assert.notEqual(published.id, scheduled.id);
    // Published as any post is: its author's followers get it in their home timeline.
    const home = await call(server, "GET", "/api/v1/timelines/home", { token: bob.token });
    assert.deepEqual(
      home.map((s: Json) => s.id),
      [published.id],
    );
    await call(server, "GET", `${SCHEDULED}/${scheduled.id}`, { token: alice.token }, 404);
    assert.deepEqual(await call(server, "GET", SCHEDULED, { token: alice.token }), []);

    // Running it again finds nothing to publish.
    assert.equal(await publishScheduledStatus(server.wren.ctx, scheduled.id), undefined);
    clock.advance(60 * MINUTE);
    await server.wren.jobs.runDue();
    assert.equal((await statusesOf(server, alice)).length, 1);
  });

  it("keeps a quote and its policy until it publishes the quote, as Mastodon 4.5", async () => {
    const { server, clock, alice, bob } = await setUp();
    const quoted = await post(server, bob, { status: "Quote me" });
    const scheduled = await post(server, alice, {
      status: "Later, with a quote",
      quoted_status_id: quoted.id,
      quote_approval_policy: "followers",
      scheduled_at: inMinutes(30),
    });
    assert.equal(scheduled.params.quoted_status_id, quoted.id);
    assert.equal(scheduled.params.quote_approval_policy, "followers");
    const plain = await post(server, alice, { status: "No quote", scheduled_at: inMinutes(40) });
    assert.equal(plain.params.quoted_status_id, null);
    assert.equal(plain.params.quote_approval_policy, "public");
    // The quoted status must be there for the author when scheduling.
    const refused = await call(
      server,
      "POST",
      "/api/v1/statuses",
      {
        token: alice.token,
        json: { status: "x", quoted_status_id: "999999999", scheduled_at: inMinutes(30) },
      },
      404,
    );
    assert.equal(refused.error, "Record not found");

    clock.advance(30 * MINUTE);
    await server.wren.jobs.runDue();
    const [published] = await statusesOf(server, alice);
    assert.equal(published.quote?.quoted_status?.id, quoted.id);
    assert.equal(published.quote_approval?.automatic?.[0], "followers");
  });

  it("answers a retry with the same Idempotency-Key with the first scheduled status", async () => {
    const { server, alice } = await setUp();
    const body = { status: "Retried", scheduled_at: inMinutes(60) };
    const headers = { "idempotency-key": "abc-123" };
    const first = await post(server, alice, body, headers);
    const again = await post(server, alice, body, headers);
    assert.equal(again.id, first.id);
    // The same key for an immediate post is another request: it posts.
    const now = await post(server, alice, { status: "Now" }, headers);
    assert.equal(now.content, "<p>Now</p>");
    const other = await post(server, alice, body, { "idempotency-key": "def-456" });
    assert.notEqual(other.id, first.id);
    const listed = await call(server, "GET", SCHEDULED, { token: alice.token });
    assert.equal(listed.length, 2);
    assert.equal(first.params.idempotency, "abc-123");
    // With media too: the retry finds its first answer, not media taken by it.
    const picture = await storeMedia(server, alice.account.id);
    const withMedia = { ...body, media_ids: [picture.id] };
    const held = await post(server, alice, withMedia, { "idempotency-key": "ghi-789" });
    const heldAgain = await post(server, alice, withMedia, { "idempotency-key": "ghi-789" });
    assert.equal(heldAgain.id, held.id);
  });

  it("publishes once when two runners reach it together", async () => {
    const { server, clock, alice } = await setUp();
    const scheduled = await post(server, alice, { status: "Once", scheduled_at: inMinutes(10) });
    clock.advance(10 * MINUTE);
    const ctx = server.wren.ctx;
    const results = await Promise.all([
      publishScheduledStatus(ctx, scheduled.id),
      publishScheduledStatus(ctx, scheduled.id),
      server.wren.jobs.runDue(),
    ]);
    assert.equal(results.slice(0, 2).filter((r) => r !== undefined).length, 1);
    assert.equal((await statusesOf(server, alice)).length, 1);
  });

  it("refuses a time less than five minutes ahead, or not a time, and posts a past one at once", async () => {
    const { server, alice } = await setUp();
    const soon = await call(
      server,
      "POST",
      "/api/v1/statuses",
      { token: alice.token, json: { status: "x", scheduled_at: inMinutes(5) } },
      422,
    );
    assert.equal(
      soon.error,
      "Validation failed: Scheduled at The scheduled date must be in the future",
    );
    const bad = await call(
      server,
      "POST",
      "/api/v1/statuses",
      { token: alice.token, json: { status: "x", scheduled_at: "soon" } },
      422,
    );
    assert.equal(bad.error, "Validation failed: Scheduled at is invalid");
    // The post's own rules are checked when scheduling, not only at the time.
    const blank = await call(
      server,
      "POST",
      "/api/v1/statuses",
      { token: alice.token, json: { status: "", scheduled_at: inMinutes(60) } },
      422,
    );
    assert.equal(blank.error, "Validation failed: Text can't be blank");
    await call(
      server,
      "POST",
      "/api/v1/statuses",
      {
        token: alice.token,
        json: { status: "x", in_reply_to_id: "12345", scheduled_at: inMinutes(60) },
      },
      404,
    );
    assert.deepEqual(await call(server, "GET", SCHEDULED, { token: alice.token }), []);

    // A time already past: Mastodon posts at once. A date alone is its midnight UTC.
    const now = await post(server, alice, { status: "Now", scheduled_at: "2029-12-31" });
    assert.equal(now.content, "<p>Now</p>");
    const form = new URLSearchParams({ status: "Form", scheduled_at: "2030-01-02" });
    const res = await server.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      body: form,
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as Json).scheduled_at, "2030-01-02T00:00:00.000Z");
  });

  it("keeps to 25 a day and 300 in all", async () => {
    const { server, alice } = await setUp();
    for (let i = 0; i < 25; i++) {
      await post(server, alice, { status: `day one #${i}`, scheduled_at: "2030-01-05T10:00:00Z" });
    }
    const full = await call(
      server,
      "POST",
      "/api/v1/statuses",
      { token: alice.token, json: { status: "one more", scheduled_at: "2030-01-05T23:59:00Z" } },
      422,
    );
    assert.equal(
      full.error,
      "Validation failed: You have exceeded the limit of 25 scheduled posts for today",
    );
    const other = await post(server, alice, { status: "next day", scheduled_at: "2030-01-06" });
    // Moving one onto the full day is refused too; moving it within its own day is not.
    await call(
      server,
      "PUT",
      `${SCHEDULED}/${other.id}`,
      { token: alice.token, json: { scheduled_at: "2030-01-05T12:00:00Z" } },
      422,
    );
    const [first] = await call(server, "GET", `${SCHEDULED}?limit=1`, { token: alice.token });
    assert.equal(first.id, other.id);

    // Up to the total limit, written straight to storage (300 requests would only be slow).
    const ctx = server.wren.ctx;
    const record = await ctx.storage.scheduledStatuses.get(other.id);
    assert.ok(record);
    for (
      let i = await ctx.storage.scheduledStatuses.countByAccount(alice.account.id);
      i < SCHEDULED_TOTAL_LIMIT;
      i++
    ) {
      await ctx.storage.scheduledStatuses.put({
        ...record,
        id: ctx.ids.next(),
        scheduledAt: "2031-01-01T00:00:00.000Z",
        jobId: null,
      });
    }
    const over = await call(
      server,
      "POST",
      "/api/v1/statuses",
      { token: alice.token, json: { status: "too many", scheduled_at: "2032-01-01" } },
      422,
    );
    assert.equal(
      over.error,
      "Validation failed: You have exceeded the limit of 300 scheduled posts",
    );
  });

  it("lists newest first with Link headers, and pages", async () => {
    const { server, alice } = await setUp();
    const made: Json[] = [];
    for (let i = 0; i < 3; i++) {
      made.push(await post(server, alice, { status: `s${i}`, scheduled_at: inMinutes(60 + i) }));
    }
    const res = await server.request(`${SCHEDULED}?limit=2`, { token: alice.token });
    assert.equal(res.status, 200);
    const page = (await res.json()) as Json[];
    assert.deepEqual(
      page.map((s) => s.id),
      [made[2].id, made[1].id],
    );
    const link = res.headers.get("link") ?? "";
    assert.match(link, new RegExp(`max_id=${made[1].id}.*rel="next"`));
    assert.match(link, new RegExp(`min_id=${made[2].id}.*rel="prev"`));
    const next = await call(server, "GET", `${SCHEDULED}?limit=2&max_id=${made[1].id}`, {
      token: alice.token,
    });
    assert.deepEqual(
      next.map((s: Json) => s.id),
      [made[0].id],
    );
    await call(server, "GET", `${SCHEDULED}?limit=abc`, { token: alice.token }, 422);
  });

  it("moves the time with PUT (the job moves with it) and cancels with DELETE", async () => {
    const { server, clock, alice, bob } = await setUp();
    const ctx = server.wren.ctx;
    const scheduled = await post(server, alice, { status: "Moved", scheduled_at: inMinutes(30) });
    const before = await ctx.storage.scheduledStatuses.get(scheduled.id);
    assert.ok(before?.jobId);

    const moved = await call(server, "PUT", `${SCHEDULED}/${scheduled.id}`, {
      token: alice.token,
      json: { scheduled_at: inMinutes(90), status: "ignored" },
    });
    assert.equal(moved.scheduled_at, inMinutes(90));
    assert.equal(moved.params.text, "Moved");
    const after = await ctx.storage.scheduledStatuses.get(scheduled.id);
    assert.ok(after?.jobId);
    assert.notEqual(after.jobId, before.jobId);
    assert.equal(await ctx.storage.jobs.get(before.jobId), undefined);
    assert.equal((await ctx.storage.jobs.get(after.jobId))?.runAt, inMinutes(90));
    // Had a crash kept the old job (moved before it was removed), it would publish nothing.
    await ctx.jobs.enqueue(
      PUBLISH_SCHEDULED_JOB,
      { scheduledStatusId: scheduled.id },
      { runAt: new Date(inMinutes(30)) },
    );

    // Without a time nothing changes; a time too soon, or another's status, is refused.
    const same = await call(server, "PUT", `${SCHEDULED}/${scheduled.id}`, {
      token: alice.token,
      json: {},
    });
    assert.equal(same.scheduled_at, inMinutes(90));
    const soon = await call(
      server,
      "PUT",
      `${SCHEDULED}/${scheduled.id}`,
      { token: alice.token, json: { scheduled_at: inMinutes(3) } },
      422,
    );
    assert.equal(
      soon.error,
      "Validation failed: Scheduled at The scheduled date must be in the future",
    );
    await call(
      server,
      "PUT",
      `${SCHEDULED}/${scheduled.id}`,
      { token: bob.token, json: { scheduled_at: inMinutes(20) } },
      404,
    );
    await cancel(server, bob, scheduled.id, 404);

    clock.advance(30 * MINUTE);
    await server.wren.jobs.runDue();
    assert.deepEqual(await statusesOf(server, alice), []);
    clock.advance(60 * MINUTE);
    await server.wren.jobs.runDue();
    assert.equal((await statusesOf(server, alice))[0]?.content, "<p>Moved</p>");

    const cancelled = await post(server, alice, { status: "Never", scheduled_at: inMinutes(200) });
    const record = await ctx.storage.scheduledStatuses.get(cancelled.id);
    await cancel(server, alice, cancelled.id);
    assert.equal(await ctx.storage.jobs.get(record?.jobId ?? ""), undefined);
    await call(server, "GET", `${SCHEDULED}/${cancelled.id}`, { token: alice.token }, 404);
    await cancel(server, alice, cancelled.id, 404);
    clock.advance(200 * MINUTE);
    await server.wren.jobs.runDue();
    assert.equal((await statusesOf(server, alice)).length, 1);
  });

  it("holds its media meanwhile and publishes with it; cancelling gives it back", async () => {
    const { server, clock, alice } = await setUp();
    const ctx = server.wren.ctx;
    const picture = await storeMedia(server, alice.account.id);
    const scheduled = await post(server, alice, {
      status: "A picture, tomorrow",
      media_ids: [picture.id],
      sensitive: true,
      scheduled_at: inMinutes(2 * 24 * 60),
    });
    assert.deepEqual(scheduled.params.media_ids, [picture.id]);
    assert.equal(scheduled.params.sensitive, true);
    assert.deepEqual(
      scheduled.media_attachments.map((m: Json) => m.id),
      [picture.id],
    );
    const listed = await call(server, "GET", SCHEDULED, { token: alice.token });
    assert.equal(listed[0].media_attachments[0].id, picture.id);
    // Nothing else may take it meanwhile: no other post, no other scheduled status.
    const taken = await call(
      server,
      "POST",
      "/api/v1/statuses",
      { token: alice.token, json: { status: "mine now", media_ids: [picture.id] } },
      422,
    );
    assert.match(taken.error, /already attached to another post/);
    await call(
      server,
      "POST",
      "/api/v1/statuses",
      {
        token: alice.token,
        json: { status: "mine later", media_ids: [picture.id], scheduled_at: inMinutes(3000) },
      },
      422,
    );
    await call(server, "DELETE", `/api/v1/media/${picture.id}`, { token: alice.token }, 422);
    // Until published it is still the author's to describe (Mastodon attaches it only then).
    const described = await call(server, "PUT", `/api/v1/media/${picture.id}`, {
      token: alice.token,
      json: { description: "A red square" },
    });
    assert.equal(described.description, "A red square");
    const shown = await call(server, "GET", `${SCHEDULED}/${scheduled.id}`, { token: alice.token });
    assert.equal(shown.media_attachments[0].description, "A red square");
    await call(server, "GET", `/api/v1/media/${picture.id}`, { token: alice.token });
    const bob = await createUserWithToken(server, "bob2");
    await call(server, "GET", `/api/v1/media/${picture.id}`, { token: bob.token }, 404);

    // The hourly cleanup of unattached uploads (a day old) leaves held media alone.
    clock.advance(25 * 60 * MINUTE);
    await server.wren.jobs.runDue();
    assert.ok(await ctx.storage.media.get(picture.id));

    clock.advance(23 * 60 * MINUTE);
    await server.wren.jobs.runDue();
    const [published] = await statusesOf(server, alice);
    assert.deepEqual(
      published.media_attachments.map((m: Json) => m.id),
      [picture.id],
    );
    assert.equal(published.sensitive, true);
    assert.equal(published.media_attachments[0].description, "A red square");
    assert.equal((await ctx.storage.media.get(picture.id))?.statusId, published.id);
    // Posted, it changes only through the status.
    await call(server, "GET", `/api/v1/media/${picture.id}`, { token: alice.token }, 404);

    const second = await storeMedia(server, alice.account.id);
    const held = await post(server, alice, {
      status: "",
      media_ids: [second.id],
      scheduled_at: inMinutes(4000),
    });
    await cancel(server, alice, held.id);
    assert.equal((await ctx.storage.media.get(second.id))?.statusId, null);
    const now = await post(server, alice, { status: "", media_ids: [second.id] });
    assert.equal(now.media_attachments[0].id, second.id);
  });

  it("keeps the poll in its params and opens it when published", async () => {
    const { server, clock, alice } = await setUp();
    const scheduled = await post(server, alice, {
      status: "Which?",
      poll: { options: ["a", "b"], expires_in: 600, multiple: true },
      scheduled_at: inMinutes(60),
    });
    assert.deepEqual(scheduled.params.poll, {
      options: ["a", "b"],
      expires_in: 600,
      multiple: true,
      hide_totals: false,
    });
    const bad = await call(
      server,
      "POST",
      "/api/v1/statuses",
      {
        token: alice.token,
        json: {
          status: "?",
          poll: { options: ["a"], expires_in: 600 },
          scheduled_at: inMinutes(60),
        },
      },
      422,
    );
    assert.match(bad.error, /Choices must have more than one item/);

    clock.advance(60 * MINUTE);
    await server.wren.jobs.runDue();
    const [published] = await statusesOf(server, alice);
    assert.deepEqual(
      published.poll.options.map((o: Json) => o.title),
      ["a", "b"],
    );
    assert.equal(published.poll.multiple, true);
    // The deadline counts from the publication.
    assert.equal(published.poll.expires_at, inMinutes(70));
  });

  it("drops a reply whose parent is gone by then, as Mastodon does", async () => {
    const { server, clock, alice } = await setUp();
    const parent = await post(server, alice, { status: "Parent" });
    const reply = await post(server, alice, {
      status: "Reply",
      in_reply_to_id: parent.id,
      scheduled_at: inMinutes(60),
    });
    assert.equal(reply.params.in_reply_to_id, parent.id);
    await call(server, "DELETE", `/api/v1/statuses/${parent.id}`, { token: alice.token });
    clock.advance(60 * MINUTE);
    await server.wren.jobs.runDue();
    assert.deepEqual(await statusesOf(server, alice), []);
    await call(server, "GET", `${SCHEDULED}/${reply.id}`, { token: alice.token }, 404);
    const failed = await server.wren.ctx.storage.jobs.failed(10);
    assert.deepEqual(failed, []);
  });

  it("drops the scheduled posts of an author suspended meanwhile, giving back the media", async () => {
    const { server, clock, alice } = await setUp();
    const ctx = server.wren.ctx;
    const picture = await storeMedia(server, alice.account.id);
    const scheduled = await post(server, alice, {
      status: "Never seen",
      media_ids: [picture.id],
      scheduled_at: inMinutes(60),
    });
    const account = await ctx.storage.accounts.get(alice.account.id);
    assert.ok(account);
    await ctx.storage.accounts.put({ ...account, suspended: true });
    clock.advance(60 * MINUTE);
    await server.wren.jobs.runDue();
    assert.equal(await ctx.storage.scheduledStatuses.get(scheduled.id), undefined);
    assert.equal(await ctx.storage.statuses.countByAccount(alice.account.id), 0);
    assert.equal((await ctx.storage.media.get(picture.id))?.statusId, null);
  });

  it("needs read:statuses to read and write:statuses to change", async () => {
    const { server, alice } = await setUp();
    const scheduled = await post(server, alice, { status: "Scoped", scheduled_at: inMinutes(60) });
    const reader = await createUserWithToken(server, "reader", ["read:statuses"]);
    const writer = await createUserWithToken(server, "writer", ["write:statuses"]);
    assert.deepEqual(await call(server, "GET", SCHEDULED, { token: reader.token }), []);
    await call(server, "GET", SCHEDULED, { token: writer.token }, 403);
    await call(server, "GET", `${SCHEDULED}/${scheduled.id}`, { token: writer.token }, 403);
    await call(
      server,
      "POST",
      "/api/v1/statuses",
      { token: reader.token, json: { status: "x", scheduled_at: inMinutes(60) } },
      403,
    );
    await call(
      server,
      "PUT",
      `${SCHEDULED}/${scheduled.id}`,
      { token: reader.token, json: { scheduled_at: inMinutes(90) } },
      403,
    );
    await cancel(server, reader, scheduled.id, 403);
    // The writer may schedule (its token cannot read them back).
    const own = await post(server, writer, { status: "w", scheduled_at: inMinutes(60) });
    assert.equal(own.params.text, "w");
    await call(server, "GET", SCHEDULED, {}, 401);
    await call(server, "GET", `${SCHEDULED}/abc`, { token: alice.token }, 404);
  });
});
