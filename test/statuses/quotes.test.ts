// Quote posts (Mastodon 4.5) between local users: quoting per the quoted status's policy, the
// Quote entity as each viewer may see it (never the content of a status hidden from them), the
// `quote` notification, the list of a status's quotes, revoking a quote and changing the policy.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUsers, type TestUser } from "../helpers/accounts.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, follow, type Json, post } from "./helpers.ts";

describe("quote posts", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  before(async () => {
    server = await startTestServer();
    [alice, bob, carol, dave] = await createUsers(server, "alice", "bob", "carol", "dave");
    await follow(server, bob, alice);
    // Alice blocks dave: her posts are hidden from him, wherever they are quoted.
    await call(server, "POST", `/api/v1/accounts/${dave.account.id}/block`, { token: alice.token });
  });
  after(() => server.close());

  const quote = (user: TestUser, quoted: Json, extra: Record<string, unknown> = {}) =>
    post(server, user, { status: "look at this", quoted_status_id: quoted.id, ...extra });
  const refuse = (user: TestUser, quoted: Json, expected: number) =>
    call(
      server,
      "POST",
      "/api/v1/statuses",
      { token: user.token, json: { status: "no", quoted_status_id: quoted.id } },
      expected,
    );
  const get = (id: string, token?: string) =>
    call(server, "GET", `/api/v1/statuses/${id}`, { token });

  it("quotes a public status: accepted, shown in full, counted, listed and notified", async () => {
    const original = await post(server, alice, { status: "quotable" });
    assert.deepEqual(original.quote_approval, {
      automatic: ["public"],
      manual: [],
      current_user: "automatic",
    });
    const quoting = await quote(bob, original);
    assert.equal(quoting.quote.state, "accepted");
    assert.equal(quoting.quote.quoted_status.id, original.id);
    assert.equal(quoting.quote.quoted_status.content, original.content);
    // The fallback link for apps and servers that know no quotes (clients hide quote-inline).
    assert.ok(
      quoting.content.startsWith(`<p class="quote-inline">RE: <a href="${original.url}">`),
      quoting.content,
    );

    // Anonymous readers see it too, and the count on the quoted status.
    assert.equal((await get(quoting.id)).quote.quoted_status.id, original.id);
    assert.equal((await get(original.id, alice.token)).quotes_count, 1);
    assert.equal((await get(original.id)).quote_approval.current_user, "unknown");

    const quotes = await call(server, "GET", `/api/v1/statuses/${original.id}/quotes`, {
      token: alice.token,
    });
    assert.deepEqual(
      quotes.map((s: Json) => s.id),
      [quoting.id],
    );
    const notes = await call(server, "GET", "/api/v1/notifications?types[]=quote", {
      token: alice.token,
    });
    assert.equal(notes.length, 1);
    assert.equal(notes[0].type, "quote");
    assert.equal(notes[0].account.id, bob.account.id);
    assert.equal(notes[0].status.id, quoting.id);
    // A text that links the quoted post already gets no fallback.
    const linking = await quote(carol, original, { status: `see ${original.url}` });
    assert.doesNotMatch(linking.content, /quote-inline/);
  });

  it("tells those who quoted a status of its edits (quoted_update, with their quote)", async () => {
    const original = await post(server, alice, { status: "first draft" });
    const quoting = await quote(carol, original);
    await call(server, "PUT", `/api/v1/statuses/${original.id}`, {
      token: alice.token,
      json: { status: "second draft" },
    });
    const notes = await call(server, "GET", "/api/v1/notifications?types[]=quoted_update", {
      token: carol.token,
    });
    assert.equal(notes.length, 1);
    assert.equal(notes[0].account.id, alice.account.id);
    assert.equal(notes[0].status.id, quoting.id);
    assert.match(notes[0].status.quote.quoted_status.content, /second draft/);
  });

  it("a quote inside a quoted status is shallow", async () => {
    const first = await post(server, alice, { status: "first" });
    const second = await quote(bob, first);
    const third = await quote(carol, second);
    assert.equal(third.quote.quoted_status.id, second.id);
    assert.deepEqual(third.quote.quoted_status.quote, {
      state: "accepted",
      quoted_status_id: first.id,
    });
  });

  it("refuses quotes the policy does not allow: private, followers only, nobody", async () => {
    const followersOnly = await post(server, alice, { status: "f", visibility: "private" });
    assert.deepEqual(followersOnly.quote_approval.automatic, []);
    // Not a follower: the status does not exist for carol; bob sees it but may not quote it.
    await refuse(carol, followersOnly, 404);
    await refuse(bob, followersOnly, 403);

    const nobody = await post(server, alice, { status: "n", quote_approval_policy: "nobody" });
    assert.deepEqual(nobody.quote_approval.automatic, []);
    assert.equal((await get(nobody.id, bob.token)).quote_approval.current_user, "denied");
    await refuse(bob, nobody, 403);

    const followers = await post(server, alice, {
      status: "fo",
      quote_approval_policy: "followers",
    });
    assert.deepEqual(followers.quote_approval.automatic, ["followers"]);
    await refuse(carol, followers, 403);
    assert.equal((await quote(bob, followers)).quote.state, "accepted");
  });

  it("shows a quote of a status the viewer may not see as unauthorized, never its content", async () => {
    const original = await post(server, alice, { status: "not for dave" });
    const quoting = await quote(bob, original);
    assert.equal((await get(quoting.id)).quote.quoted_status.id, original.id);
    assert.deepEqual((await get(quoting.id, dave.token)).quote, {
      state: "unauthorized",
      quoted_status: null,
    });

    // Authors may quote their own followers-only posts, in followers-only posts.
    const secret = await post(server, alice, { status: "for followers", visibility: "private" });
    const inner = await quote(alice, secret, { visibility: "private" });
    assert.equal(inner.quote.state, "accepted");
    assert.equal((await get(inner.id, bob.token)).quote.quoted_status.id, secret.id);

    const doomed = await post(server, alice, { status: "soon gone" });
    const orphan = await quote(bob, doomed);
    await call(server, "DELETE", `/api/v1/statuses/${doomed.id}`, { token: alice.token });
    assert.deepEqual((await get(orphan.id)).quote, { state: "deleted", quoted_status: null });
  });

  it("revokes a quote: the quoted author only, then it is revoked and unlisted", async () => {
    const original = await post(server, alice, { status: "revocable" });
    const quoting = await quote(carol, original);
    const path = `/api/v1/statuses/${original.id}/quotes/${quoting.id}/revoke`;
    await call(server, "POST", path, { token: carol.token }, 403);
    const revoked = await call(server, "POST", path, { token: alice.token });
    assert.equal(revoked.id, quoting.id);
    assert.deepEqual(revoked.quote, { state: "revoked", quoted_status: null });
    assert.deepEqual((await get(quoting.id)).quote, { state: "revoked", quoted_status: null });
    const list = await call(server, "GET", `/api/v1/statuses/${original.id}/quotes`, {
      token: alice.token,
    });
    assert.deepEqual(list, []);
    assert.equal((await get(original.id, alice.token)).quotes_count, 0);
    // Not a quote of this status.
    const other = await post(server, alice, { status: "other" });
    await call(
      server,
      "POST",
      `/api/v1/statuses/${other.id}/quotes/${quoting.id}/revoke`,
      { token: alice.token },
      404,
    );
  });

  it("changes the policy by interaction_policy and by editing; private stays nobody", async () => {
    const status = await post(server, alice, { status: "policy" });
    const path = `/api/v1/statuses/${status.id}/interaction_policy`;
    const changed = await call(server, "PUT", path, {
      token: alice.token,
      json: { quote_approval_policy: "followers" },
    });
    assert.deepEqual(changed.quote_approval.automatic, ["followers"]);
    await refuse(carol, status, 403);
    const edited = await call(server, "PUT", `/api/v1/statuses/${status.id}`, {
      token: alice.token,
      json: { status: "policy, edited", quote_approval_policy: "public" },
    });
    assert.deepEqual(edited.quote_approval.automatic, ["public"]);
    // The policy alone, with the text unchanged, is no edit but still applies.
    const policyOnly = await call(server, "PUT", `/api/v1/statuses/${status.id}`, {
      token: alice.token,
      json: { status: "policy, edited", quote_approval_policy: "nobody" },
    });
    assert.deepEqual(policyOnly.quote_approval.automatic, []);
    assert.equal(policyOnly.edited_at, edited.edited_at);
    // Someone else's status is not theirs to change.
    await call(server, "PUT", path, { token: bob.token, json: {} }, 404);
    const secret = await post(server, alice, { status: "s", visibility: "private" });
    const still = await call(server, "PUT", `/api/v1/statuses/${secret.id}/interaction_policy`, {
      token: alice.token,
      json: { quote_approval_policy: "public" },
    });
    assert.deepEqual(still.quote_approval.automatic, []);
  });

  it("takes the poster's default policy (source[quote_policy]) when a post names none", async () => {
    const updated = await call(server, "PATCH", "/api/v1/accounts/update_credentials", {
      token: dave.token,
      json: { source: { quote_policy: "followers" } },
    });
    assert.equal(updated.source.quote_policy, "followers");
    const prefs = await call(server, "GET", "/api/v1/preferences", { token: dave.token });
    assert.equal(prefs["posting:default:quote_policy"], "followers");
    const status = await post(server, dave, { status: "defaults" });
    assert.deepEqual(status.quote_approval.automatic, ["followers"]);
    const chosen = await post(server, dave, { status: "x", quote_approval_policy: "public" });
    assert.deepEqual(chosen.quote_approval.automatic, ["public"]);
    await call(
      server,
      "PATCH",
      "/api/v1/accounts/update_credentials",
      { token: dave.token, json: { source: { quote_policy: "anyone" } } },
      422,
    );
  });

  it("answers bad input with 4xx and checks scopes", async () => {
    const status = await post(server, alice, { status: "x" });
    const bad = async (json: Record<string, unknown>, expected: number) => {
      const res = await server.request("/api/v1/statuses", {
        method: "POST",
        token: bob.token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(json),
      });
      assert.equal(res.status, expected, JSON.stringify(json));
      assert.equal(typeof ((await res.json()) as Json).error, "string");
    };
    await bad({ status: "x", quote_approval_policy: "everyone" }, 422);
    await bad({ status: "x", quoted_status_id: "not-an-id" }, 422);
    await bad({ status: "x", quoted_status_id: "999999999" }, 404);
    // A quote goes without poll or attachments; a followers-only post is quoted privately only;
    // a private mention quotes only those it mentions.
    await bad(
      { status: "x", quoted_status_id: status.id, poll: { options: ["a", "b"], expires_in: 600 } },
      422,
    );
    const secret = await post(server, alice, { status: "s", visibility: "private" });
    await call(
      server,
      "POST",
      "/api/v1/statuses",
      { token: alice.token, json: { status: "x", quoted_status_id: secret.id } },
      422,
    );
    await bad({ status: "x", quoted_status_id: status.id, visibility: "direct" }, 422);
    const res = await server.request(`/api/v1/statuses/${status.id}/interaction_policy`, {
      method: "PUT",
      token: alice.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ quote_approval_policy: 3 }),
    });
    assert.equal(res.status, 422);
    // Listing needs a user token with read:statuses; someone else's status is refused.
    assert.equal((await server.request(`/api/v1/statuses/${status.id}/quotes`)).status, 401);
    await call(server, "GET", `/api/v1/statuses/${status.id}/quotes`, { token: bob.token }, 403);
  });
});
