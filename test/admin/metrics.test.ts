// The admin API's metrics over three days of a manual clock: measures (active users from the
// days tokens were used, sign-ups, reports opened and resolved, a hashtag's uses and accounts, a
// remote server's statuses and reports), dimensions (languages, sources, servers, versions, a
// hashtag's and a server's languages) and retention cohorts by day and by month. A user's
// activity costs one record a day however many requests they make. Users and tokens without
// admin:read are refused.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { reviewIdOf } from "../../src/domain/trend-review.ts";
import { call, type Json, manualClock } from "../graph/helpers.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { remoteAccountRecord, statusRecord } from "../helpers/records.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { MANY_REQUESTS, postStatus } from "../timelines/helpers.ts";

const DAY = 86_400;
const PERIOD = { start_at: "2026-03-01T00:00:00Z", end_at: "2026-03-03" };

describe("the admin API's metrics", () => {
  const clock = manualClock("2026-03-01T10:00:00.000Z");
  let server: TestServer;
  let mod: TestUser;
  let user: TestUser;
  let unscoped: TestUser;
  let alice: TestUser;
  let bob: TestUser;

  const ok = async (path: string, body: Json) => {
    const res = await call(server, "POST", path, mod.token, body);
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    assertMatchesResponse("POST", path, 200, res.body);
    return res.body;
  };
  const measure = async (key: string, extra: Json = {}) => {
    const [found] = await ok("/api/v1/admin/measures", { keys: [key], ...PERIOD, ...extra });
    return found;
  };
  const dimension = async (key: string, extra: Json = {}) => {
    const [found] = await ok("/api/v1/admin/dimensions", { keys: [key], ...PERIOD, ...extra });
    return found.data.map((d: Json) => [d.key, d.value]);
  };
  const values = (m: Json) => m.data.map((d: Json) => Number(d.value));

  before(async () => {
    server = await startTestServer(MANY_REQUESTS, { clock });
    const staff = ["read", "write", "admin:read", "admin:write"];
    // Day 1: five sign-ups; alice and bob post and alice reports bob (and a remote account).
    mod = await createUserWithToken(server, "mod", staff, { role: "moderator" });
    user = await createUserWithToken(server, "user", staff);
    unscoped = await createUserWithToken(server, "unscoped", ["read"], { role: "admin" });
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
    await postStatus(server, alice.token, { status: "#garden in bloom", language: "en" });
    await postStatus(server, bob.token, { status: "#Garden en fleurs", language: "fr" });
    const ctx = server.wren.ctx;
    const remote = remoteAccountRecord(server, "far", "remote.example");
    await ctx.storage.accounts.put(remote);
    const remoteStatus = statusRecord(server, remote);
    await ctx.storage.statuses.put({
      ...remoteStatus,
      conversationId: remoteStatus.id,
      language: "de",
    });
    const report = await call(server, "POST", "/api/v1/reports", alice.token, {
      account_id: bob.account.id,
    });
    await call(server, "POST", "/api/v1/reports", alice.token, { account_id: remote.id });
    // Day 2: carol signs up (and never comes back); alice is active, the moderator resolves.
    clock.advance(DAY);
    await createUserWithToken(server, "carol");
    for (let i = 0; i < 3; i++) {
      await call(server, "GET", "/api/v1/accounts/verify_credentials", alice.token);
    }
    const resolved = await call(
      server,
      "POST",
      `/api/v1/admin/reports/${report.body.id}/resolve`,
      mod.token,
    );
    assert.equal(resolved.status, 200);
    // Day 3: only the moderator, reading the metrics.
    clock.advance(DAY);
  });
  after(() => server.close());

  it("counts active users from the days their tokens were used, one record a day each", async () => {
    const active = await measure("active_users");
    assert.deepEqual(values(active), [2, 2, 1]);
    assert.equal(active.total, "3");
    assert.equal(active.previous_total, "0");
    assert.deepEqual(
      active.data.map((d: Json) => d.date),
      ["2026-03-01T00:00:00Z", "2026-03-02T00:00:00Z", "2026-03-03T00:00:00Z"],
    );
    const records = await server.wren.ctx.storage.kv.list(["wren", "activeDay", "2026-03-02"]);
    assert.deepEqual(
      records.map((r) => r.key[3]).sort(),
      [alice.account.id, mod.account.id].sort(),
    );
    // The instance's weekly logins are those users too (week 0 starts at today's midnight).
    const weeks = (await call(server, "GET", "/api/v1/instance/activity")).body;
    assert.deepEqual(
      weeks.slice(0, 3).map((w: Json) => w.logins),
      ["1", "3", "0"],
    );
  });

  it("measures sign-ups, reports and a remote server", async () => {
    assert.deepEqual(values(await measure("new_users")), [5, 1, 0]);
    assert.deepEqual(values(await measure("opened_reports")), [2, 0, 0]);
    const resolved = await measure("resolved_reports");
    assert.deepEqual(values(resolved), [0, 1, 0]);
    assert.equal(resolved.total, "1");
    const domain = { instance_statuses: { domain: "Remote.example" } };
    assert.deepEqual(values(await measure("instance_statuses", domain)), [1, 0, 0]);
    const reports = await measure("instance_reports", {
      instance_reports: { domain: "remote.example" },
    });
    assert.deepEqual(values(reports), [1, 0, 0]);
    assert.equal(reports.previous_total, undefined);
  });

  it("measures a hashtag by its id", async () => {
    const id = reviewIdOf("tag", "garden");
    const uses = await measure("tag_uses", { tag_uses: { id } });
    assert.deepEqual(values(uses), [2, 0, 0]);
    const accounts = await measure("tag_accounts", { tag_accounts: { id } });
    assert.equal(accounts.total, "2");
    assert.equal((await measure("tag_servers", { tag_servers: { id } })).total, "0");
    // Several keys at once; ones Wren cannot answer are left out.
    const many = await ok("/api/v1/admin/measures", {
      keys: ["new_users", "interactions", "tag_uses"],
      tag_uses: { id },
      ...PERIOD,
    });
    assert.deepEqual(
      many.map((m: Json) => m.key),
      ["new_users", "tag_uses"],
    );
  });

  it("gives the dimensions", async () => {
    assert.deepEqual(await dimension("languages"), [
      ["en", "1"],
      ["fr", "1"],
    ]);
    assert.deepEqual(await dimension("sources"), [["web", "6"]]);
    assert.deepEqual(await dimension("servers"), [["remote.example", "1"]]);
    const id = reviewIdOf("tag", "garden");
    assert.deepEqual(await dimension("tag_languages", { tag_languages: { id } }), [
      ["en", "1"],
      ["fr", "1"],
    ]);
    assert.deepEqual(await dimension("tag_servers", { tag_servers: { id } }), []);
    assert.deepEqual(
      await dimension("instance_languages", { instance_languages: { domain: "remote.example" } }),
      [["de", "1"]],
    );
    const versions = await dimension("software_versions");
    assert.equal(versions[0][0], "wren");
  });

  it("gives retention cohorts by day and by month", async () => {
    const daily = await ok("/api/v1/admin/retention", { ...PERIOD, frequency: "day" });
    assert.deepEqual(
      daily.map((c: Json) => [c.period, c.data.map((d: Json) => [d.value, d.rate])]),
      [
        [
          "2026-03-01T00:00:00Z",
          [
            ["3", 0.6],
            ["2", 0.4],
            ["1", 0.2],
          ],
        ],
        [
          "2026-03-02T00:00:00Z",
          [
            ["0", 0],
            ["0", 0],
          ],
        ],
        ["2026-03-03T00:00:00Z", [["0", 0]]],
      ],
    );
    const monthly = await ok("/api/v1/admin/retention", { ...PERIOD, frequency: "month" });
    assert.deepEqual(monthly.length, 1);
    assert.equal(monthly[0].frequency, "month");
    assert.deepEqual(monthly[0].data, [{ date: "2026-03-01T00:00:00Z", rate: 0.5, value: "3" }]);
  });

  it("refuses bad input with an error", async () => {
    const bad = async (path: string, body: Json, status: number) => {
      const res = await call(server, "POST", path, mod.token, body);
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.equal(typeof res.body.error, "string");
    };
    await bad("/api/v1/admin/measures", { keys: ["new_users"], start_at: "2026-03-01" }, 422);
    await bad("/api/v1/admin/measures", { keys: ["new_users"], start_at: "x", end_at: "y" }, 422);
    await bad("/api/v1/admin/retention", { start_at: "2026-03-02", end_at: "2026-03-01" }, 422);
    await bad("/api/v1/admin/retention", { start_at: "2020-01-01", end_at: "2026-03-01" }, 422);
    await bad("/api/v1/admin/measures", { keys: ["tag_uses"], ...PERIOD }, 400);
    await bad(
      "/api/v1/admin/measures",
      { keys: ["tag_uses"], tag_uses: { id: "1" }, ...PERIOD },
      404,
    );
  });

  it("refuses users, tokens without admin:read and anonymous callers", async () => {
    for (const path of [
      "/api/v1/admin/measures",
      "/api/v1/admin/dimensions",
      "/api/v1/admin/retention",
    ]) {
      const body = { keys: ["new_users"], ...PERIOD };
      assert.equal((await call(server, "POST", path, user.token, body)).status, 403);
      assert.equal((await call(server, "POST", path, unscoped.token, body)).status, 403);
      assert.equal((await call(server, "POST", path, undefined, body)).status, 401);
    }
  });
});
