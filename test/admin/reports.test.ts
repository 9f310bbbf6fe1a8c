// The admin API's reports: moderators (and admins) with admin:*:reports scopes list the queue
// with its filters, read a report with its accounts, statuses and rules, take it on and give it
// back, recategorise, resolve and reopen it; users and tokens without the scope are refused.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Json } from "../graph/helpers.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const BASE = "/api/v1/admin/reports";

describe("the admin API's reports", () => {
  let server: TestServer;
  let mod: TestUser;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let spamReport: string;
  let ruleReport: string;
  let statusId: string;

  const call = async (user: TestUser | string, method: string, path: string, body?: Json) => {
    const res = await server.request(path, {
      method,
      token: typeof user === "string" ? user : user.token,
      ...(body
        ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }
        : {}),
    });
    return { status: res.status, body: (await res.json()) as Json, res };
  };
  const ok = async (user: TestUser, method: string, path: string, body?: Json) => {
    const answer = await call(user, method, path, body);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assertMatchesResponse(method, path.split("?")[0] as string, 200, answer.body);
    return answer.body;
  };

  before(async () => {
    server = await startTestServer({ WREN_RULES: "Be kind\nNo spam" });
    const staffScopes = ["read", "write", "admin:read", "admin:write"];
    mod = await createUserWithToken(server, "mod", staffScopes, { role: "moderator" });
    admin = await createUserWithToken(server, "boss", staffScopes, { role: "admin" });
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
    carol = await createUserWithToken(server, "carol");
    statusId = (await call(bob, "POST", "/api/v1/statuses", { status: "Buy now!" })).body.id;
    spamReport = (
      await call(alice, "POST", "/api/v1/reports", {
        account_id: bob.account.id,
        status_ids: [statusId],
        category: "spam",
        comment: "ads",
      })
    ).body.id;
    ruleReport = (
      await call(carol, "POST", "/api/v1/reports", {
        account_id: alice.account.id,
        rule_ids: ["1"],
      })
    ).body.id;
  });
  after(() => server.close());

  it("lists the reports newest first, with their accounts, statuses and rules", async () => {
    const list: Json[] = await ok(mod, "GET", BASE);
    assert.deepEqual(
      list.map((r) => r.id),
      [ruleReport, spamReport],
    );
    const spam = list[1];
    assert.equal(spam.category, "spam");
    assert.equal(spam.comment, "ads");
    assert.equal(spam.account.id, alice.account.id);
    assert.equal(spam.account.email, alice.user.email);
    assert.equal(spam.target_account.username, "bob");
    assert.equal(spam.target_account.account.acct, "bob");
    assert.deepEqual(
      spam.statuses.map((s: Json) => s.id),
      [statusId],
    );
    assert.deepEqual(
      list[0].rules.map((r: Json) => [r.id, r.text]),
      [["1", "Be kind"]],
    );
  });

  it("filters by state, reporter and target, and pages", async () => {
    const byTarget: Json[] = await ok(mod, "GET", `${BASE}?target_account_id=${bob.account.id}`);
    assert.deepEqual(
      byTarget.map((r) => r.id),
      [spamReport],
    );
    const byReporter: Json[] = await ok(mod, "GET", `${BASE}?account_id=${carol.account.id}`);
    assert.deepEqual(
      byReporter.map((r) => r.id),
      [ruleReport],
    );
    const first = await call(mod, "GET", `${BASE}?limit=1`);
    assert.deepEqual(
      first.body.map((r: Json) => r.id),
      [ruleReport],
    );
    const next = /<([^>]+)>;\s*rel="next"/.exec(first.res.headers.get("link") ?? "")?.[1];
    assert.ok(next);
    const second: Json[] = await ok(mod, "GET", new URL(next).pathname + new URL(next).search);
    assert.deepEqual(
      second.map((r) => r.id),
      [spamReport],
    );
  });

  it("assigns to self and unassigns", async () => {
    const assigned = await ok(mod, "POST", `${BASE}/${spamReport}/assign_to_self`);
    assert.equal(assigned.assigned_account.id, mod.account.id);
    assert.ok(assigned.updated_at >= assigned.created_at);
    const again = await ok(mod, "POST", `${BASE}/${spamReport}/assign_to_self`);
    assert.equal(again.assigned_account.id, mod.account.id);
    const taken = await ok(admin, "POST", `${BASE}/${spamReport}/assign_to_self`);
    assert.equal(taken.assigned_account.id, admin.account.id);
    const freed = await ok(mod, "POST", `${BASE}/${spamReport}/unassign`);
    assert.equal(freed.assigned_account, null);
  });

  it("recategorises: cited rules make a violation, other categories drop them", async () => {
    const violation = await ok(mod, "PUT", `${BASE}/${spamReport}`, { rule_ids: ["2"] });
    assert.equal(violation.category, "violation");
    assert.deepEqual(
      violation.rules.map((r: Json) => r.text),
      ["No spam"],
    );
    const other = await ok(mod, "PUT", `${BASE}/${spamReport}`, { category: "other" });
    assert.equal(other.category, "other");
    assert.deepEqual(other.rules, []);
    const bad = await call(mod, "PUT", `${BASE}/${spamReport}`, { rule_ids: ["99"] });
    assert.equal(bad.status, 422);
    const badCategory = await call(mod, "PUT", `${BASE}/${spamReport}`, { category: "nonsense" });
    assert.equal(badCategory.status, 422);
  });

  it("resolves as the moderator and reopens", async () => {
    const resolved = await ok(mod, "POST", `${BASE}/${spamReport}/resolve`);
    assert.equal(resolved.action_taken, true);
    assert.equal(resolved.action_taken_by_account.id, mod.account.id);
    assert.ok(resolved.action_taken_at);
    const open: Json[] = await ok(mod, "GET", `${BASE}?resolved=false`);
    assert.deepEqual(
      open.map((r) => r.id),
      [ruleReport],
    );
    const done: Json[] = await ok(mod, "GET", `${BASE}?resolved=true`);
    assert.deepEqual(
      done.map((r) => r.id),
      [spamReport],
    );
    const reopened = await ok(admin, "POST", `${BASE}/${spamReport}/reopen`);
    assert.equal(reopened.action_taken, false);
    assert.equal(reopened.action_taken_by_account, null);
    // The reporter's own view agrees.
    const seen = await ok(mod, "GET", `${BASE}/${spamReport}`);
    assert.equal(seen.action_taken, false);
  });

  it("refuses users without the permission, tokens without the scope, and unknown reports", async () => {
    // The scope alone is not enough: the role must grant managing reports.
    const plain = await createUserWithToken(server, "dan", ["read", "admin:read"]);
    const user = await call(plain, "GET", BASE);
    assert.equal(user.status, 403);
    assert.equal(user.body.error, "This action is not allowed");
    assert.equal((await call(alice, "GET", BASE)).status, 403);
    const readOnly = await createUserWithToken(server, "mod2", ["read", "admin:read:reports"], {
      role: "moderator",
    });
    assert.equal((await call(readOnly, "GET", BASE)).status, 200);
    assert.equal((await call(readOnly, "POST", `${BASE}/${ruleReport}/resolve`)).status, 403);
    const noAdminScope = await createUserWithToken(server, "mod3", ["read", "write"], {
      role: "moderator",
    });
    assert.equal((await call(noAdminScope, "GET", BASE)).status, 403);
    assert.equal((await server.request(BASE)).status, 401);
    assert.equal((await call(mod, "GET", `${BASE}/123456`)).status, 404);
    assert.equal((await call(mod, "GET", `${BASE}?resolved=maybe`)).status, 422);
  });
});
