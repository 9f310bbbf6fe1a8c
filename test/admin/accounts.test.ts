// The admin API's accounts: moderators and up with admin:*:accounts scopes list accounts (v1 and
// v2 filters, paging), read one, approve and reject sign-ups, act (sensitive, silence, disable,
// suspend, with a report resolved), undo each action and delete a suspended account's data;
// users and tokens without the scope are refused, and nobody acts on a role at or above theirs.
// Also the roles as Account.roles and CredentialAccount.role show them.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { makeAccount } from "../../src/storage/contract/fixtures.ts";
import type { Json } from "../graph/helpers.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { openWebSocket } from "../helpers/streaming.ts";

const V1 = "/api/v1/admin/accounts";
const V2 = "/api/v2/admin/accounts";

describe("the admin API's accounts", () => {
  let server: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  let mod: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let newbie: TestUser;
  let remoteId: string;

  const call = async (
    user: TestUser | string | null,
    method: string,
    path: string,
    body?: Json,
  ) => {
    const res = await server.request(path, {
      method,
      ...(user === null ? {} : { token: typeof user === "string" ? user : user.token }),
      ...(body
        ? { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }
        : {}),
    });
    return { status: res.status, body: (await res.json()) as Json, res };
  };
  const ok = async (user: TestUser, method: string, path: string, body?: Json) => {
    const answer = await call(user, method, path, body);
    assert.equal(answer.status, 200, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    // `action` answers an empty object, documented without a schema.
    if (path.endsWith("/action")) assert.deepEqual(answer.body, {});
    else assertMatchesResponse(method, path.split("?")[0] as string, 200, answer.body);
    return answer.body;
  };
  const ids = (list: Json[]) => list.map((a) => a.username).sort();

  before(async () => {
    server = await startTestServer();
    const staff = ["read", "write", "admin:read", "admin:write"];
    owner = await createUserWithToken(server, "owner", staff, { role: "owner" });
    admin = await createUserWithToken(server, "boss", staff, { role: "admin" });
    mod = await createUserWithToken(server, "mod", staff, { role: "moderator" });
    alice = await createUserWithToken(server, "alice", staff);
    bob = await createUserWithToken(server, "bob");
    newbie = await createUserWithToken(server, "newbie");
    const ctx = server.wren.ctx;
    await ctx.storage.users.put({ ...newbie.user, approved: false, signUpReason: "hi" });
    remoteId = ctx.ids.next();
    await ctx.storage.accounts.put(
      makeAccount({ id: remoteId, username: "rem", domain: "far.example" }),
    );
  });
  after(() => server.close());

  it("refuses users without the permission and tokens without the scope", async () => {
    const readOnly = await createUserWithToken(server, "modlite", ["read", "write"], {
      role: "moderator",
    });
    const id = bob.account.id;
    const routes: [string, string][] = [
      ["GET", V1],
      ["GET", V2],
      ["GET", `${V1}/${id}`],
      ["DELETE", `${V1}/${id}`],
      ...["approve", "reject", "action", "enable", "unsilence", "unsuspend", "unsensitive"].map(
        (a): [string, string] => ["POST", `${V1}/${id}/${a}`],
      ),
    ];
    for (const [method, path] of routes) {
      const body = method === "POST" ? { type: "none" } : undefined;
      assert.equal((await call(alice, method, path, body)).status, 403, `user: ${path}`);
      assert.equal((await call(readOnly, method, path, body)).status, 403, `scope: ${path}`);
      assert.equal((await call(null, method, path, body)).status, 401, `anonymous: ${path}`);
    }
    // Deleting data is for admins and the owner only (delete_user_data).
    assert.equal((await call(mod, "DELETE", `${V1}/${id}`)).status, 403);
  });

  it("shows the roles and their permission bits as Mastodon's default roles", async () => {
    const me = await ok(owner, "GET", "/api/v1/accounts/verify_credentials");
    assert.deepEqual(me.role, {
      id: "3",
      name: "Owner",
      permissions: "1048575",
      color: "",
      highlighted: true,
    });
    assert.deepEqual(me.roles, [{ id: "3", name: "Owner", color: "" }]);
    const perms = async (user: TestUser) =>
      (await ok(user, "GET", "/api/v1/accounts/verify_credentials")).role.permissions;
    assert.equal(await perms(admin), "1048572");
    assert.equal(await perms(mod), "66844");
    assert.equal(await perms(alice), "65536");
    const shown = await ok(alice, "GET", `/api/v1/accounts/${mod.account.id}`);
    assert.deepEqual(shown.roles, [{ id: "1", name: "Moderator", color: "" }]);
  });

  it("lists with v1's filters: local and active by default", async () => {
    const all: Json[] = await ok(mod, "GET", V1);
    assert.deepEqual(ids(all), ["alice", "bob", "boss", "mod", "modlite", "owner"]);
    assert.deepEqual(ids(await ok(mod, "GET", `${V1}?pending=true`)), ["newbie"]);
    assert.deepEqual(ids(await ok(mod, "GET", `${V1}?remote=true`)), ["rem"]);
    assert.deepEqual(ids(await ok(mod, "GET", `${V1}?staff=true`)), [
      "boss",
      "mod",
      "modlite",
      "owner",
    ]);
    assert.deepEqual(ids(await ok(mod, "GET", `${V1}?username=AL`)), ["alice"]);
    assert.deepEqual(ids(await ok(mod, "GET", `${V1}?email=bob@`)), ["bob"]);
    assert.deepEqual(ids(await ok(mod, "GET", `${V1}?remote=true&by_domain=far.example`)), ["rem"]);
    assert.deepEqual(await ok(mod, "GET", `${V1}?ip=127.0.0.1`), []);
    const first = await call(mod, "GET", `${V1}?limit=2`);
    assert.equal(first.body.length, 2);
    const next = /<([^>]+)>;\s*rel="next"/.exec(first.res.headers.get("link") ?? "")?.[1];
    assert.ok(next);
    const second: Json[] = await ok(mod, "GET", new URL(next).pathname + new URL(next).search);
    assert.equal(second.length, 2);
    assert.ok(BigInt(second[0].id) < BigInt(first.body[1].id));
  });

  it("lists with v2's filters", async () => {
    assert.equal((await ok(mod, "GET", V2)).length, 8);
    assert.deepEqual(ids(await ok(mod, "GET", `${V2}?origin=remote`)), ["rem"]);
    assert.deepEqual(ids(await ok(mod, "GET", `${V2}?status=pending`)), ["newbie"]);
    assert.deepEqual(ids(await ok(mod, "GET", `${V2}?role_ids[]=3&role_ids[]=2`)), [
      "boss",
      "owner",
    ]);
    assert.deepEqual(ids(await ok(mod, "GET", `${V2}?permissions=staff&role_ids[]=1`)), [
      "mod",
      "modlite",
    ]);
    assert.deepEqual(ids(await ok(mod, "GET", `${V2}?display_name=bob`)), []);
    assert.deepEqual(ids(await ok(mod, "GET", `${V2}?by_domain=FAR.example`)), ["rem"]);
    const bad = await call(mod, "GET", `${V2}?status=sleeping`);
    assert.equal(bad.status, 422);
  });

  it("shows one account, local or remote", async () => {
    const shown = await ok(mod, "GET", `${V1}/${newbie.account.id}`);
    assert.equal(shown.approved, false);
    assert.equal(shown.invite_request, "hi");
    assert.equal(shown.role.id, "-99");
    const remote = await ok(mod, "GET", `${V1}/${remoteId}`);
    assert.equal(remote.domain, "far.example");
    assert.equal(remote.role, null);
    assert.equal((await call(mod, "GET", `${V1}/99999999`)).status, 404);
  });

  it("approves a pending sign-up once; 403 for others and remote accounts", async () => {
    assert.equal((await call(newbie, "GET", "/api/v1/accounts/verify_credentials")).status, 403);
    assert.equal((await call(alice, "GET", `/api/v1/accounts/${newbie.account.id}`)).status, 404);
    const approved = await ok(mod, "POST", `${V1}/${newbie.account.id}/approve`);
    assert.equal(approved.approved, true);
    assert.equal((await call(mod, "POST", `${V1}/${newbie.account.id}/approve`)).status, 403);
    assert.equal((await call(mod, "POST", `${V1}/${remoteId}/approve`)).status, 403);
    await ok(newbie, "GET", "/api/v1/accounts/verify_credentials");
    await ok(alice, "GET", `/api/v1/accounts/${newbie.account.id}`);
  });

  it("rejects a pending sign-up: the account is gone", async () => {
    const pending = await createUserWithToken(server, "spammer");
    await server.wren.ctx.storage.users.put({ ...pending.user, approved: false });
    assert.equal((await call(mod, "POST", `${V1}/${bob.account.id}/reject`)).status, 403);
    const rejected = await ok(mod, "POST", `${V1}/${pending.account.id}/reject`);
    assert.equal(rejected.username, "spammer");
    assert.equal((await call(mod, "GET", `${V1}/${pending.account.id}`)).status, 404);
  });

  it("refuses actions on oneself and on roles at or above one's own; 422 for unknown types", async () => {
    const act = (by: TestUser, target: TestUser, type: string) =>
      call(by, "POST", `${V1}/${target.account.id}/action`, { type });
    assert.equal((await act(mod, admin, "silence")).status, 403);
    assert.equal((await act(mod, mod, "silence")).status, 403);
    assert.equal((await act(admin, owner, "suspend")).status, 403);
    assert.equal((await act(mod, bob, "explode")).status, 422);
    assert.equal((await call(mod, "POST", `${V1}/99999999/action`, { type: "none" })).status, 404);
  });

  it("silences, marks sensitive and disables, and undoes each", async () => {
    const status = (await call(bob, "POST", "/api/v1/statuses", { status: "hello" })).body;
    const act = async (type: string) =>
      assert.deepEqual(await ok(mod, "POST", `${V1}/${bob.account.id}/action`, { type }), {});
    await act("silence");
    await act("sensitive");
    let shown = await ok(mod, "GET", `${V1}/${bob.account.id}`);
    assert.equal(shown.silenced, true);
    assert.equal(shown.sensitized, true);
    assert.equal((await ok(alice, "GET", `/api/v1/statuses/${status.id}`)).sensitive, true);
    shown = await ok(mod, "GET", `${V2}?status=silenced`);
    assert.deepEqual(ids(shown), ["bob"]);
    assert.deepEqual(ids(await ok(mod, "GET", `${V1}?sensitized=true`)), ["bob"]);
    // The Account entity says so too (Mastodon's `limited`).
    assert.equal((await ok(alice, "GET", `/api/v1/accounts/${bob.account.id}`)).limited, true);
    assert.equal((await ok(mod, "POST", `${V1}/${bob.account.id}/unsilence`)).silenced, false);
    assert.equal((await ok(alice, "GET", `/api/v1/accounts/${bob.account.id}`)).limited, undefined);
    assert.equal((await ok(mod, "POST", `${V1}/${bob.account.id}/unsensitive`)).sensitized, false);
    assert.equal((await ok(alice, "GET", `/api/v1/statuses/${status.id}`)).sensitive, false);

    await act("disable");
    assert.equal((await call(bob, "GET", "/api/v1/accounts/verify_credentials")).status, 401);
    assert.deepEqual(ids(await ok(mod, "GET", `${V1}?disabled=true`)), ["bob"]);
    assert.equal(
      (await call(mod, "POST", `${V1}/${remoteId}/action`, { type: "disable" })).status,
      403,
    );
    assert.equal((await ok(mod, "POST", `${V1}/${bob.account.id}/enable`)).disabled, false);
    await ok(bob, "GET", "/api/v1/accounts/verify_credentials");
  });

  it("disabling ends the account's open streams; reconnecting is refused", async () => {
    const streamer = await createUserWithToken(server, "streamer", ["read"]);
    const ws = await openWebSocket(server.url, {
      token: streamer.token,
      query: { stream: "user" },
    });
    // Bounded, so that a stream left open fails the test instead of hanging it.
    const closed = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the stream stayed open")), 15_000);
      ws.ws.once("close", () => resolve(clearTimeout(timer)));
    });
    await ok(mod, "POST", `${V1}/${streamer.account.id}/action`, { type: "disable" });
    await closed;
    await assert.rejects(openWebSocket(server.url, { token: streamer.token }), { status: 401 });
  });

  it("resolves the report an action cites", async () => {
    const report = (await call(alice, "POST", "/api/v1/reports", { account_id: bob.account.id }))
      .body;
    await ok(mod, "POST", `${V1}/${bob.account.id}/action`, {
      type: "none",
      report_id: report.id,
      text: "Please be nice",
      send_email_notification: true,
    });
    const after = await ok(mod, "GET", `/api/v1/admin/reports/${report.id}`);
    assert.equal(after.action_taken, true);
    assert.equal(after.action_taken_by_account.id, mod.account.id);
    const other = await call(mod, "POST", `${V1}/${alice.account.id}/action`, {
      type: "none",
      report_id: report.id,
    });
    assert.equal(other.status, 422);
  });

  it("suspends: hidden, tokens refused, actor flagged; unsuspends; deletes the data, and the actor is gone", async () => {
    const victim = await createUserWithToken(server, "victim");
    const post = (await call(victim, "POST", "/api/v1/statuses", { status: "mine" })).body;
    await ok(victim, "PATCH", "/api/v1/accounts/update_credentials", {
      display_name: "The Victim",
      note: "my bio",
    });
    await ok(alice, "POST", `/api/v1/accounts/${victim.account.id}/follow`);
    await ok(victim, "POST", `/api/v1/accounts/${alice.account.id}/follow`);
    await ok(victim, "POST", `/api/v1/accounts/${alice.account.id}/endorse`);
    await ok(mod, "POST", `${V1}/${victim.account.id}/action`, { type: "suspend" });
    const shown = await ok(mod, "GET", `${V1}/${victim.account.id}`);
    assert.equal(shown.suspended, true);
    assert.equal((await call(victim, "GET", "/api/v1/accounts/verify_credentials")).status, 401);
    // As Mastodon: the entity is shown, suspended and emptied; its posts and graph are not.
    const entity = await ok(alice, "GET", `/api/v1/accounts/${victim.account.id}`);
    assert.equal(entity.suspended, true);
    assert.equal(entity.display_name, "");
    assert.equal(entity.note, "");
    assert.deepEqual(entity.fields, []);
    assert.match(entity.avatar as string, /\/avatars\/original\/missing\.png$/);
    const many = (await call(alice, "GET", `/api/v1/accounts?id[]=${victim.account.id}`)).body;
    assert.deepEqual(
      many.map((a: Json) => [a.id, a.suspended]),
      [[victim.account.id, true]],
    );
    assert.equal((await ok(alice, "GET", "/api/v1/accounts/lookup?acct=victim")).suspended, true);
    for (const list of ["statuses", "followers", "following", "endorsements"]) {
      assert.deepEqual(await ok(alice, "GET", `/api/v1/accounts/${victim.account.id}/${list}`), []);
    }
    // Nobody follows a suspended account (Mastodon's FollowService: not found).
    assert.equal(
      (await call(alice, "POST", `/api/v1/accounts/${victim.account.id}/follow`)).status,
      404,
    );
    assert.equal((await call(alice, "GET", `/api/v1/statuses/${post.id}`)).status, 404);
    // Its actor is still served, flagged and emptied, as Mastodon's until the data is deleted.
    const actor = await server.request("/users/victim", {
      headers: { accept: "application/activity+json" },
    });
    assert.equal(actor.status, 200);
    const document = (await actor.json()) as Json;
    assert.equal(document.suspended, true);
    assert.equal(document.name, "victim");
    assert.equal(document.summary, "");
    assert.equal(document.icon, undefined);
    assert.equal(document.publicKey?.id, `${victim.account.uri}#main-key`);
    assert.deepEqual(ids(await ok(mod, "GET", `${V2}?status=suspended`)), ["victim"]);

    // Within the grace period everything comes back.
    assert.equal((await ok(mod, "POST", `${V1}/${victim.account.id}/unsuspend`)).suspended, false);
    assert.equal((await call(mod, "POST", `${V1}/${victim.account.id}/unsuspend`)).status, 403);
    await ok(victim, "GET", "/api/v1/accounts/verify_credentials");
    await ok(alice, "GET", `/api/v1/statuses/${post.id}`);
    const restored = await ok(alice, "GET", `/api/v1/accounts/${victim.account.id}`);
    assert.equal(restored.suspended, undefined);
    assert.equal(restored.display_name, "The Victim");
    assert.deepEqual(
      (await ok(alice, "GET", `/api/v1/accounts/${victim.account.id}/followers`)).map(
        (a: Json) => a.id,
      ),
      [alice.account.id],
    );
    assert.deepEqual(
      (await ok(alice, "GET", `/api/v1/accounts/${victim.account.id}/endorsements`)).map(
        (a: Json) => a.id,
      ),
      [alice.account.id],
    );
    const back = await server.request("/users/victim", {
      headers: { accept: "application/activity+json" },
    });
    assert.equal(back.status, 200);
    await back.body?.cancel();

    // Only a suspended account's data can be deleted.
    assert.equal((await call(admin, "DELETE", `${V1}/${victim.account.id}`)).status, 403);
    await ok(mod, "POST", `${V1}/${victim.account.id}/action`, { type: "suspend" });
    const deleted = await ok(admin, "DELETE", `${V1}/${victim.account.id}`);
    assert.equal(deleted.suspended, true);
    const stored = await server.wren.ctx.storage.statuses.get(post.id);
    assert.equal(stored?.deleted, true);
    assert.equal((await call(mod, "POST", `${V1}/${victim.account.id}/unsuspend`)).status, 403);
    // Deleted for good: the actor is gone.
    const gone = await server.request("/users/victim", {
      headers: { accept: "application/activity+json" },
    });
    assert.equal(gone.status, 410);
    assert.equal(((await gone.json()) as Json).type, "Tombstone");
  });
});
