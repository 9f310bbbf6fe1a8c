// Private notes about accounts (POST /api/v1/accounts/:id/note): shown to their author only, in
// the Relationship's `note`; a blank comment removes the note.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUsers, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { call, relationshipOf } from "./helpers.ts";

describe("account notes", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  before(async () => {
    server = await startTestServer();
    [alice, bob, carol] = await createUsers(server, "alice", "bob", "carol");
  });
  after(() => server.close());

  const notePath = (user: TestUser) => `/api/v1/accounts/${user.account.id}/note`;

  it("keeps a note for its author only, replaced by the next, removed by a blank one", async () => {
    const res = await call(server, "POST", notePath(bob), alice.token, {
      comment: "met at the conference",
    });
    assert.equal(res.status, 200);
    assertMatchesResponse("POST", "/api/v1/accounts/{id}/note", 200, res.body);
    assert.equal(res.body.id, bob.account.id);
    assert.equal(res.body.note, "met at the conference");

    assert.equal((await relationshipOf(server, alice, bob)).note, "met at the conference");
    // Private: neither the subject nor anyone else sees it.
    assert.equal((await relationshipOf(server, bob, alice)).note, "");
    assert.equal((await relationshipOf(server, carol, bob)).note, "");
    // A note about carol is its own.
    assert.equal((await relationshipOf(server, alice, carol)).note, "");

    const replaced = await call(server, "POST", notePath(bob), alice.token, { comment: "bob 🐦" });
    assert.equal(replaced.body.note, "bob 🐦");
    assert.equal(await server.wren.ctx.storage.accountNotes.countFrom(alice.account.id), 1);

    for (const body of [{ comment: "   " }, {}, { comment: null }]) {
      await call(server, "POST", notePath(bob), alice.token, { comment: "again" });
      const cleared = await call(server, "POST", notePath(bob), alice.token, body);
      assert.equal(cleared.status, 200);
      assert.equal(cleared.body.note, "", JSON.stringify(body));
      assert.equal(
        await server.wren.ctx.storage.accountNotes.get(alice.account.id, bob.account.id),
        undefined,
      );
    }
  });

  it("accepts a form body and notes up to 2000 characters", async () => {
    const res = await server.request(notePath(carol), {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "comment=from+a+form",
    });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { note: string }).note, "from a form");
    const longest = "é".repeat(2000);
    const ok = await call(server, "POST", notePath(carol), alice.token, { comment: longest });
    assert.equal(ok.body.note, longest);
    const tooLong = await call(server, "POST", notePath(carol), alice.token, {
      comment: `${longest}x`,
    });
    assert.equal(tooLong.status, 422);
    assert.equal(typeof tooLong.body.error, "string");
    assert.equal((await relationshipOf(server, alice, carol)).note, longest);
  });

  it("answers 404 for an unknown account, 422 for a non-text comment, and checks scopes", async () => {
    const missing = await call(server, "POST", "/api/v1/accounts/999999999/note", alice.token, {
      comment: "x",
    });
    assert.equal(missing.status, 404);
    assert.equal(typeof missing.body.error, "string");
    const bad = await call(server, "POST", notePath(bob), alice.token, { comment: { a: 1 } });
    assert.equal(bad.status, 422);
    assert.equal(typeof bad.body.error, "string");

    assert.equal(
      (await call(server, "POST", notePath(bob), undefined, { comment: "x" })).status,
      401,
    );
    const reader = await createUserWithToken(server, "reader", ["read:accounts"]);
    const denied = await call(server, "POST", notePath(bob), reader.token, { comment: "x" });
    assert.equal(denied.status, 403);
    const writer = await createUserWithToken(server, "writer", ["write:accounts"]);
    const allowed = await call(server, "POST", notePath(bob), writer.token, { comment: "x" });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.body.note, "x");
  });
});

describe("GET /api/v1/accounts?id[]=", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  before(async () => {
    server = await startTestServer();
    [alice, bob] = await createUsers(server, "alice", "bob");
  });
  after(() => server.close());

  it("answers the accounts asked, in order, once each, skipping unknown ids", async () => {
    const path = `/api/v1/accounts?id[]=${bob.account.id}&id[]=999999999&id[]=${alice.account.id}&id[]=${bob.account.id}`;
    const res = await call(server, "GET", path);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", "/api/v1/accounts", 200, res.body);
    assert.deepEqual(
      res.body.map((a: { id: string; username: string }) => [a.id, a.username]),
      [
        [bob.account.id, "bob"],
        [alice.account.id, "alice"],
      ],
    );
    const none = await call(server, "GET", "/api/v1/accounts", alice.token);
    assert.equal(none.status, 200);
    assert.deepEqual(none.body, []);
  });

  it("refuses more than 40 ids and malformed ids with 422, and a token without read scope", async () => {
    const many = Array.from({ length: 41 }, (_, i) => `id[]=${i + 1}`).join("&");
    const tooMany = await call(server, "GET", `/api/v1/accounts?${many}`);
    assert.equal(tooMany.status, 422);
    assert.equal(typeof tooMany.body.error, "string");
    const forty = Array.from({ length: 40 }, (_, i) => `id[]=${i + 1}`).join("&");
    assert.equal((await call(server, "GET", `/api/v1/accounts?${forty}`)).status, 200);
    const bad = await call(server, "GET", "/api/v1/accounts?id[]=abc");
    assert.equal(bad.status, 422);
    assert.equal(typeof bad.body.error, "string");
    const writer = await createUserWithToken(server, "writer", ["write:statuses"]);
    const denied = await call(
      server,
      "GET",
      `/api/v1/accounts?id[]=${bob.account.id}`,
      writer.token,
    );
    assert.equal(denied.status, 403);
  });
});
