// Annual reports ("Wrapstodon") over HTTP: outside December's campaign nothing is generated;
// in it, an eligible user's report is generated once by a durable job, its progress shown as
// an async refresh (Mastodon-Async-Refresh header, GET /api/v1_alpha/async_refreshes/:id), and
// the report is computed from the user's real activity of that year only. Driven by a clock the
// test moves; the job runner is stopped so that the test decides when the job runs.

import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { issueAccessToken } from "../../src/services/oauth/issue-access-token.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type MovableClock, movableClock } from "../polls/helpers.ts";
import { call, follow, type Json, post } from "../statuses/helpers.ts";

const DAY = 24 * 60 * 60_000;
const REPORTS = "/api/v1/annual_reports";

/** Moves the clock forward to `iso` (ids only grow with the clock). */
function moveTo(clock: MovableClock, iso: string): void {
  const delta = Date.parse(iso) - clock.now().getTime();
  assert.ok(delta >= 0, "the test clock only moves forward");
  clock.advance(delta);
}

async function tokenWith(server: TestServer, user: TestUser, scopes: string[]): Promise<string> {
  const { secret } = await issueAccessToken(server.wren.ctx, {
    app: user.app,
    accountId: user.account.id,
    scopes,
    withRefreshToken: false,
  });
  return secret;
}

/** The refresh id of a Mastodon-Async-Refresh header, checking its form. */
function refreshIdOf(res: Response): string {
  const header = res.headers.get("mastodon-async-refresh") ?? "";
  const match = /^id="([^"]+)", retry=2$/.exec(header);
  assert.ok(match, `Mastodon-Async-Refresh: ${header}`);
  return match[1] as string;
}

describe("annual reports", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function state(s: TestServer, user: TestUser, year: string): Promise<Json> {
    return (await call(s, "GET", `${REPORTS}/${year}/state`, { token: user.token })).state;
  }

  it("generates a report of the year's activity once, in December, through a job", async () => {
    const clock = movableClock("2025-06-01T12:00:00.000Z");
    const s = await startTestServer({}, { clock });
    server = s;
    const [alice, bob, carol, dave] = [
      await createUserWithToken(s, "alice"),
      await createUserWithToken(s, "bob"),
      await createUserWithToken(s, "carol"),
      await createUserWithToken(s, "dave"),
    ];
    // Last year's activity must not count in this year's report.
    await post(s, alice, { status: "an old #Cats post" });
    await post(s, alice, { status: "another old #Cats post" });

    moveTo(clock, "2026-03-01T12:00:00.000Z");
    await follow(s, bob, alice);
    const popular = await post(s, alice, { status: "I like #Cats" });
    await post(s, alice, { status: "still #cats", visibility: "unlisted" });
    await post(s, alice, { status: "secret #Dogs", visibility: "private" });
    const bobs = await post(s, bob, { status: "hello" });
    await post(s, alice, { status: "@bob hi", in_reply_to_id: bobs.id });
    await call(s, "POST", `/api/v1/statuses/${bobs.id}/reblog`, { token: alice.token });
    await call(s, "POST", `/api/v1/statuses/${popular.id}/reblog`, { token: bob.token });
    await post(s, dave, { status: "only for friends #Cats", visibility: "private" });

    // Before the campaign (December 10th–31st) no report can be generated.
    assert.equal(await state(s, alice, "2026"), "ineligible");
    let res = await s.request(`${REPORTS}/2026/generate`, { method: "POST", token: alice.token });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {});
    assert.equal(res.headers.get("mastodon-async-refresh"), null);

    moveTo(clock, "2026-12-15T09:00:00.000Z");
    assert.equal(await state(s, alice, "2026"), "eligible");
    // Only the current campaign's year, and only users with something to report.
    assert.equal(await state(s, alice, "2025"), "ineligible");
    assert.equal(await state(s, carol, "2026"), "ineligible");
    // Eligibility as Mastodon's: a public or quiet public status, and a status with a hashtag.
    assert.equal(await state(s, bob, "2026"), "ineligible");
    assert.equal(await state(s, dave, "2026"), "ineligible");
    await call(s, "GET", `${REPORTS}/2026`, { token: alice.token }, 404);

    await s.wren.jobs.stop();
    res = await s.request(`${REPORTS}/2026/generate`, { method: "POST", token: alice.token });
    assert.equal(res.status, 202);
    assert.deepEqual(await res.json(), {});
    const refreshId = refreshIdOf(res);
    // Asked again while it runs: the same refresh, no second job.
    res = await s.request(`${REPORTS}/2026/generate`, { method: "POST", token: alice.token });
    assert.equal(res.status, 202);
    assert.equal(refreshIdOf(res), refreshId);
    res = await s.request(`${REPORTS}/2026/state`, { token: alice.token });
    assert.deepEqual(await res.json(), { state: "generating" });
    assert.equal(refreshIdOf(res), refreshId);

    const refreshPath = `/api/v1_alpha/async_refreshes/${refreshId}`;
    const running = await call(s, "GET", refreshPath, { token: alice.token });
    assert.deepEqual(running, {
      async_refresh: { id: refreshId, status: "running", result_count: null },
    });
    // Someone else's refresh is as unknown as an id that names nothing.
    await call(s, "GET", refreshPath, { token: bob.token }, 404);
    await call(s, "GET", "/api/v1_alpha/async_refreshes/nonsense", { token: alice.token }, 404);
    await call(s, "GET", "/api/v1_alpha/async_refreshes/%2F%2F", { token: alice.token }, 404);

    await s.wren.jobs.runDue();
    assert.equal(await state(s, alice, "2026"), "available");
    assert.deepEqual(await call(s, "GET", refreshPath, { token: alice.token }), {
      async_refresh: { id: refreshId, status: "finished", result_count: 1 },
    });

    const wrapped = await call(s, "GET", REPORTS, { token: alice.token });
    assert.equal(wrapped.annual_reports.length, 1);
    const [report] = wrapped.annual_reports;
    assert.equal(report.year, 2026);
    assert.equal(report.schema_version, 2);
    assert.equal(report.account_id, alice.account.id);
    assert.equal(report.share_url, null);
    assert.deepEqual(report.data, {
      // 5 statuses of 2026 (4 posts and a reblog): far below Mastodon's yearly average.
      archetype: "lurker",
      time_series: [{ month: 12, statuses: 5, followers: 1 }],
      // #Cats twice in 2026 (its spelling of the latest use); #Dogs once is not listed.
      top_hashtags: [{ name: "cats", count: 2 }],
      top_statuses: { by_reblogs: popular.id, by_favourites: null, by_replies: null },
    });
    assert.deepEqual(
      wrapped.accounts.map((a: Json) => a.id),
      [alice.account.id],
    );
    assert.deepEqual(
      wrapped.statuses.map((st: Json) => [st.id, st.reblogs_count, st.reblogged]),
      [[popular.id, 1, false]],
    );
    assert.deepEqual(await call(s, "GET", `${REPORTS}/2026`, { token: alice.token }), wrapped);

    // Generated once: asking again changes nothing, even after more activity.
    await post(s, alice, { status: "more #Cats" });
    res = await s.request(`${REPORTS}/2026/generate`, { method: "POST", token: alice.token });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("mastodon-async-refresh"), null);
    await s.wren.jobs.runDue();
    assert.deepEqual(
      (await call(s, "GET", `${REPORTS}/2026`, { token: alice.token })).annual_reports[0].data,
      report.data,
    );

    // Read: no longer listed, still served by year.
    res = await s.request(`${REPORTS}/2026/read`, { method: "POST", token: alice.token });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {});
    assert.deepEqual(await call(s, "GET", REPORTS, { token: alice.token }), {
      annual_reports: [],
      accounts: [],
      statuses: [],
    });
    assert.equal(
      (await call(s, "GET", `${REPORTS}/2026`, { token: alice.token })).annual_reports.length,
      1,
    );
    // Each user sees only their own reports.
    await call(s, "GET", `${REPORTS}/2026`, { token: bob.token }, 404);
    await call(s, "POST", `${REPORTS}/2026/read`, { token: bob.token }, 404);

    // After the campaign, the report stays available and nothing new can be generated.
    clock.advance(30 * DAY);
    assert.equal(await state(s, alice, "2026"), "available");
    assert.equal(await state(s, bob, "2026"), "ineligible");
  });

  it("refuses bad years, missing tokens and scopes", async () => {
    const clock = movableClock("2026-12-20T00:00:00.000Z");
    const s = await startTestServer({}, { clock });
    server = s;
    const alice = await createUserWithToken(s, "alice");
    for (const year of ["abc", "20260", "-1", "2026.5"]) {
      await call(s, "GET", `${REPORTS}/${year}`, { token: alice.token }, 404);
      await call(s, "GET", `${REPORTS}/${year}/state`, { token: alice.token }, 404);
      await call(s, "POST", `${REPORTS}/${year}/generate`, { token: alice.token }, 404);
      await call(s, "POST", `${REPORTS}/${year}/read`, { token: alice.token }, 404);
    }
    await call(s, "POST", `${REPORTS}/2025/read`, { token: alice.token }, 404);

    await call(s, "GET", REPORTS, {}, 401);
    await call(s, "GET", `${REPORTS}/2026/state`, {}, 401);
    await call(s, "POST", `${REPORTS}/2026/generate`, {}, 401);
    await call(s, "GET", "/api/v1_alpha/async_refreshes/abc", {}, 401);

    const readAccounts = await tokenWith(s, alice, ["read:accounts"]);
    const readStatuses = await tokenWith(s, alice, ["read:statuses"]);
    const writeAccounts = await tokenWith(s, alice, ["write:accounts"]);
    assert.deepEqual(await call(s, "GET", REPORTS, { token: readAccounts }), {
      annual_reports: [],
      accounts: [],
      statuses: [],
    });
    await call(s, "GET", REPORTS, { token: readStatuses }, 403);
    await call(s, "GET", `${REPORTS}/2026/state`, { token: writeAccounts }, 403);
    await call(s, "POST", `${REPORTS}/2026/generate`, { token: readAccounts }, 403);
    await call(s, "POST", `${REPORTS}/2026/read`, { token: readAccounts }, 403);
    // Nothing posted this year: ineligible, so generating is a no-op (200), as Mastodon answers.
    const res = await s.request(`${REPORTS}/2026/generate`, {
      method: "POST",
      token: writeAccounts,
    });
    assert.equal(res.status, 200);
    // async_refreshes needs `read` itself (Mastodon: doorkeeper_authorize! :read).
    await call(s, "GET", "/api/v1_alpha/async_refreshes/abc", { token: readAccounts }, 403);
  });
});
