// GET and PATCH /api/v1/profile (Mastodon 4.6's Profile): the owner's editable values as typed,
// null images when unset, changes shared with update_credentials, and their validation.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { call, type Json } from "../graph/helpers.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { solidPng } from "../helpers/images.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const P = "/api/v1/profile";

describe(P, () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
  });
  after(() => server.close());

  it("answers the profile with null images while none is set", async () => {
    const res = await call(server, "GET", P, alice.token);
    assert.equal(res.status, 200);
    assertMatchesResponse("GET", "/api/v1/profile", 200, res.body);
    assert.equal(res.body.id, alice.account.id);
    assert.equal(res.body.avatar, null);
    assert.equal(res.body.header_static, null);
    assert.equal(res.body.locked, false);
    assert.deepEqual(res.body.fields, []);
  });

  it("changes the profile and answers the raw values typed, not the HTML", async () => {
    const res = await call(server, "PATCH", P, alice.token, {
      display_name: "Alice A.",
      note: "Hello *world* https://example.com",
      locked: true,
      fields_attributes: [{ name: "site", value: "https://alice.example" }],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertMatchesResponse("PATCH", "/api/v1/profile", 200, res.body);
    assert.equal(res.body.display_name, "Alice A.");
    assert.equal(res.body.note, "Hello *world* https://example.com");
    assert.equal(res.body.locked, true);
    assert.deepEqual(
      res.body.fields.map((f: Json) => [f.name, f.value]),
      [["site", "https://alice.example"]],
    );
    // The same account the Mastodon entity shows, rendered there.
    const account = await server.request(`/api/v1/accounts/${alice.account.id}`);
    const json = (await account.json()) as Json;
    assert.equal(json.display_name, "Alice A.");
    assert.equal(json.locked, true);
    assert.match(json.note, /<a href="https:\/\/example.com"/);
    // GET answers what PATCH stored.
    const again = await call(server, "GET", P, alice.token);
    assert.equal(again.body.note, "Hello *world* https://example.com");
  });

  it("takes an avatar as a multipart upload, then shows its URL; deleting it sets null", async () => {
    const form = new FormData();
    form.append(
      "avatar",
      new Blob([new Uint8Array(await solidPng(64, 64))], { type: "image/png" }),
      "a.png",
    );
    const res = await server.request("/api/v1/profile", {
      method: "PATCH",
      token: alice.token,
      body: form,
    });
    const body = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(body));
    assertMatchesResponse("PATCH", "/api/v1/profile", 200, body);
    assert.match(body.avatar, /^https?:\/\//);
    assert.equal(body.header, null);
    const removed = await server.request("/api/v1/profile/avatar", {
      method: "DELETE",
      token: alice.token,
    });
    assert.equal(removed.status, 200);
    assert.equal((await call(server, "GET", P, alice.token)).body.avatar, null);
  });

  it("refuses bad input with 422 and leaves the profile as it was", async () => {
    for (const bad of [
      { display_name: "x".repeat(31) },
      { locked: "perhaps" },
      { fields_attributes: "nope" },
      { avatar: "not a file" },
    ]) {
      const res = await call(server, "PATCH", P, alice.token, bad);
      assert.equal(res.status, 422, JSON.stringify(bad));
      assert.equal(typeof res.body.error, "string");
    }
    assert.equal((await call(server, "GET", P, alice.token)).body.display_name, "Alice A.");
  });

  it("needs a user token: profile or read:accounts to read, write:accounts to change", async () => {
    assert.equal((await call(server, "GET", P)).status, 401);
    const profileOnly = await createUserWithToken(server, "profile_only", ["profile"]);
    assert.equal((await call(server, "GET", P, profileOnly.token)).status, 200);
    const reader = await createUserWithToken(server, "reader", ["read:accounts"]);
    assert.equal((await call(server, "GET", P, reader.token)).status, 200);
    const change = { display_name: "R" };
    assert.equal((await call(server, "PATCH", P, reader.token, change)).status, 403);
    const statuses = await createUserWithToken(server, "statuses", ["read:statuses"]);
    assert.equal((await call(server, "GET", P, statuses.token)).status, 403);
    const writer = await createUserWithToken(server, "writer", ["write:accounts"]);
    const res = await call(server, "PATCH", P, writer.token, change);
    assert.equal(res.status, 200);
    assert.equal(res.body.display_name, "R");
  });
});
