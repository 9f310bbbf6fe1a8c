// The moderation story of issue 19: someone signs up while registrations need approval, an admin
// approves them over the admin API, they post publicly, another user reports the post, a
// moderator silences the account through `action` citing the report (which is resolved), and the
// post leaves the public timelines for a third user while the author's followers still see it.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Json } from "../graph/helpers.ts";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("a community moderates a newcomer", () => {
  let server: TestServer;
  let admin: TestUser;
  let mod: TestUser;
  let reporter: TestUser;
  let reader: TestUser;
  let follower: TestUser;

  const call = async (token: string, method: string, path: string, body?: Json) => {
    const res = await server.request(path, {
      method,
      token,
      ...(body
        ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }
        : {}),
    });
    const json = (await res.json()) as Json;
    return { status: res.status, body: json };
  };
  const ok = async (token: string, method: string, path: string, body?: Json) => {
    const answer = await call(token, method, path, body);
    assert.equal(answer.status, 200, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };

  before(async () => {
    server = await startTestServer({ WREN_REGISTRATIONS: "approval" });
    const staff = ["read", "write", "admin:read", "admin:write"];
    admin = await createUserWithToken(server, "boss", staff, { role: "admin" });
    mod = await createUserWithToken(server, "mod", staff, { role: "moderator" });
    reporter = await createUserWithToken(server, "alice");
    reader = await createUserWithToken(server, "carol");
    follower = await createUserWithToken(server, "dave");
  });
  after(() => server.close());

  it("signs up, is approved, posts, is reported, silenced, and leaves the public timelines", async () => {
    const { token: appToken } = await createAppToken(server, ["read", "write"]);
    const signedUp = await ok(appToken, "POST", "/api/v1/accounts", {
      username: "newcomer",
      email: "newcomer@mail.example",
      password: "a long enough password",
      agreement: true,
      locale: "en",
      reason: "I like birds",
    });
    const token: string = signedUp.access_token;
    // Waiting for approval: not a user yet, nor counted, nor listed.
    assert.equal((await call(token, "POST", "/api/v1/statuses", { status: "x" })).status, 403);
    const v1 = await ok(reader.token, "GET", "/api/v1/instance");
    assert.equal(v1.stats.user_count, 5);
    const pending: Json[] = await ok(admin.token, "GET", "/api/v2/admin/accounts?status=pending");
    assert.deepEqual(
      pending.map((a) => [a.username, a.invite_request]),
      [["newcomer", "I like birds"]],
    );
    const search = await ok(reader.token, "GET", "/api/v2/search?q=newcomer&type=accounts");
    assert.deepEqual(search.accounts, []);
    // Discoverable from the start, so only the pending state keeps it out of the directory.
    const storage = server.wren.ctx.storage;
    const record = await storage.accounts.get(pending[0].id);
    assert.ok(record);
    await storage.accounts.put({ ...record, discoverable: true });
    const listedNames = async () =>
      ((await ok(reader.token, "GET", "/api/v1/directory?local=true")) as Json[]).map(
        (a) => a.username,
      );
    assert.ok(!(await listedNames()).includes("newcomer"));
    const byId = await ok(reader.token, "GET", `/api/v1/accounts?id[]=${pending[0].id}`);
    assert.deepEqual(byId, []);

    const approved = await ok(
      admin.token,
      "POST",
      `/api/v1/admin/accounts/${pending[0].id}/approve`,
    );
    assert.equal(approved.approved, true);
    assert.equal((await ok(reader.token, "GET", "/api/v1/instance")).stats.user_count, 6);
    assert.ok((await listedNames()).includes("newcomer"));

    const newcomerId: string = pending[0].id;
    await ok(follower.token, "POST", `/api/v1/accounts/${newcomerId}/follow`);
    const post = await ok(token, "POST", "/api/v1/statuses", {
      status: "Buy cheap watches #deals",
      visibility: "public",
    });
    const publicIds = async (user: TestUser, path = "/api/v1/timelines/public") =>
      ((await ok(user.token, "GET", path)) as Json[]).map((s) => s.id);
    assert.ok((await publicIds(reader)).includes(post.id));

    const report = await ok(reporter.token, "POST", "/api/v1/reports", {
      account_id: newcomerId,
      status_ids: [post.id],
      category: "spam",
    });
    await ok(mod.token, "POST", `/api/v1/admin/accounts/${newcomerId}/action`, {
      type: "silence",
      report_id: report.id,
      text: "Spam",
    });
    const resolved = await ok(mod.token, "GET", `/api/v1/admin/reports/${report.id}`);
    assert.equal(resolved.action_taken, true);
    assert.equal(resolved.target_account.silenced, true);

    // Gone from the public, local and hashtag timelines for someone who does not follow them…
    assert.ok(!(await publicIds(reader)).includes(post.id));
    assert.ok(!(await publicIds(reader, "/api/v1/timelines/public?local=true")).includes(post.id));
    assert.ok(!(await publicIds(reader, "/api/v1/timelines/tag/deals")).includes(post.id));
    // …still there for a follower and for its author, and still readable on its own.
    assert.ok((await publicIds(follower)).includes(post.id));
    assert.ok(
      (await ok(token, "GET", "/api/v1/timelines/public")).some((s: Json) => s.id === post.id),
    );
    await ok(reader.token, "GET", `/api/v1/statuses/${post.id}`);
  });
});
