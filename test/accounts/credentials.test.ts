import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const VERIFY = "/api/v1/accounts/verify_credentials";
const UPDATE = "/api/v1/accounts/update_credentials";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
type Json = any;

async function patchJson(server: TestServer, token: string, body: unknown) {
  return server.request(UPDATE, {
    method: "PATCH",
    token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function patchForm(server: TestServer, token: string, pairs: [string, string][]) {
  return server.request(UPDATE, {
    method: "PATCH",
    token,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(pairs).toString(),
  });
}

async function expectError(res: Response, status: number, method: string, path: string) {
  const body: Json = await res.json();
  assert.equal(res.status, status, JSON.stringify(body));
  assertMatchesResponse(method, path, status, body);
  return body;
}

describe("verify_credentials", () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice", ["read"]);
  });
  after(() => server.close());

  it("answers the CredentialAccount of the token's user", async () => {
    const res = await server.request(VERIFY, { token: alice.token });
    assert.equal(res.status, 200);
    const body: Json = await res.json();
    assertMatchesResponse("GET", VERIFY, 200, body);
    assert.equal(body.id, alice.account.id);
    assert.equal(body.username, "alice");
    assert.equal(body.acct, "alice");
    assert.equal(body.url, `${server.url}/@alice`);
    assert.equal(body.uri, `${server.url}/users/alice`);
    assert.equal(body.avatar, `${server.url}/avatars/original/missing.png`);
    assert.equal(body.header, `${server.url}/headers/original/missing.png`);
    assert.match(body.created_at, /^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
    assert.equal(body.statuses_count, 0);
    assert.equal(body.last_status_at, null);
    assert.deepEqual(body.source.fields, []);
    assert.equal(body.source.privacy, "public");
    assert.deepEqual(body.role, {
      id: "-99",
      name: "",
      permissions: "65536",
      color: "",
      highlighted: false,
    });
  });

  it("admits the profile scope and read:accounts", async () => {
    for (const scopes of [["profile"], ["read:accounts"]]) {
      const user = await createUserWithToken(server, `u_${scopes[0]?.replace(":", "_")}`, scopes);
      const res = await server.request(VERIFY, { token: user.token });
      assert.equal(res.status, 200, scopes.join());
    }
  });

  it("answers 401 without or with a bad token, 403 without scope, 422 for an app token", async () => {
    await expectError(await server.request(VERIFY), 401, "GET", VERIFY);
    await expectError(await server.request(VERIFY, { token: "nope" }), 401, "GET", VERIFY);
    const writer = await createUserWithToken(server, "writer", ["write"]);
    const forbidden = await expectError(
      await server.request(VERIFY, { token: writer.token }),
      403,
      "GET",
      VERIFY,
    );
    assert.equal(forbidden.error, "This action is outside the authorized scopes");
    const { token } = await createAppToken(server, ["read"]);
    const noUser = await expectError(await server.request(VERIFY, { token }), 422, "GET", VERIFY);
    assert.equal(noUser.error, "This method requires an authenticated user");
  });
});

describe("update_credentials", () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice", ["read", "write"]);
  });
  after(() => server.close());

  it("updates profile fields from a JSON body and renders the note and fields as HTML", async () => {
    const res = await patchJson(server, alice.token, {
      display_name: "Alice 🐦",
      note: "Hello <world>\nline two\n\nsee https://alice.example/about",
      locked: true,
      bot: "1",
      discoverable: true,
      indexable: false,
      fields_attributes: [
        { name: "Web", value: "https://alice.example" },
        { name: "", value: "" },
        { name: "Pronouns", value: "she/her" },
      ],
      source: { privacy: "unlisted", sensitive: true, language: "fr" },
    });
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assertMatchesResponse("PATCH", UPDATE, 200, body);
    assert.equal(body.display_name, "Alice 🐦");
    assert.equal(body.locked, true);
    assert.equal(body.bot, true);
    assert.equal(body.discoverable, true);
    assert.equal(body.indexable, false);
    assert.equal(body.note.startsWith("<p>Hello &lt;world&gt;<br />line two</p><p>see <a "), true);
    assert.match(body.note, /href="https:\/\/alice\.example\/about"/);
    assert.equal(body.source.note, "Hello <world>\nline two\n\nsee https://alice.example/about");
    assert.equal(body.fields.length, 2);
    assert.equal(body.fields[0].name, "Web");
    assert.match(body.fields[0].value, /rel="me nofollow noopener noreferrer"/);
    assert.deepEqual(body.source.fields, [
      { name: "Web", value: "https://alice.example", verified_at: null },
      { name: "Pronouns", value: "she/her", verified_at: null },
    ]);
    assert.equal(body.source.privacy, "unlisted");
    assert.equal(body.source.sensitive, true);
    assert.equal(body.source.language, "fr");

    const again: Json = await (await server.request(VERIFY, { token: alice.token })).json();
    assert.equal(again.display_name, "Alice 🐦");
    assert.equal(again.source.privacy, "unlisted");
  });

  it("accepts a form body with fields_attributes[i][name] hashes and string booleans", async () => {
    const res = await patchForm(server, alice.token, [
      ["display_name", "Form Alice"],
      ["locked", "false"],
      ["fields_attributes[0][name]", "One"],
      ["fields_attributes[0][value]", "1"],
      ["fields_attributes[1][name]", "Two"],
      ["fields_attributes[1][value]", "2"],
      ["source[sensitive]", "0"],
    ]);
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.display_name, "Form Alice");
    assert.equal(body.locked, false);
    assert.deepEqual(
      body.fields.map((f: Json) => [f.name, f.value]),
      [
        ["One", "1"],
        ["Two", "2"],
      ],
    );
    assert.equal(body.source.sensitive, false);
  });

  it("accepts a multipart body", async () => {
    const form = new FormData();
    form.append("display_name", "Multipart Alice");
    form.append("fields_attributes[0][name]", "Only");
    form.append("fields_attributes[0][value]", "field");
    form.append("bot", "false");
    const res = await server.request(UPDATE, { method: "PATCH", token: alice.token, body: form });
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.display_name, "Multipart Alice");
    assert.equal(body.bot, false);
    assert.deepEqual(
      body.fields.map((f: Json) => f.name),
      ["Only"],
    );
  });

  it("leaves what is not sent unchanged", async () => {
    const res = await patchJson(server, alice.token, { note: "only the note" });
    const body: Json = await res.json();
    assert.equal(body.display_name, "Multipart Alice");
    assert.equal(body.source.note, "only the note");
    assert.equal(body.fields.length, 1);
  });

  it("refuses too long values with Mastodon's messages and changes nothing", async () => {
    const before: Json = await (await server.request(VERIFY, { token: alice.token })).json();
    const cases: [unknown, RegExp][] = [
      [{ display_name: "x".repeat(31) }, /Display name is too long \(maximum is 30 characters\)/],
      [{ note: "x".repeat(501) }, /Note is too long \(maximum is 500 characters\)/],
      [
        { fields_attributes: Array.from({ length: 5 }, (_, i) => ({ name: `n${i}`, value: "v" })) },
        /Fields is too long \(maximum is 4 fields\)/,
      ],
      [
        { fields_attributes: { 0: { name: "n".repeat(256), value: "v" } } },
        /Fields name is too long \(maximum is 255 characters\)/,
      ],
      [
        { fields_attributes: [{ name: "n", value: "v".repeat(256) }] },
        /Fields value is too long \(maximum is 255 characters\)/,
      ],
      [{ source: { privacy: "everyone" } }, /Validation failed: source\.privacy/],
      [{ source: { language: "english" } }, /Source language is not included in the list/],
      [{ locked: "maybe" }, /Validation failed: locked must be a boolean/],
      [{ display_name: "ok", avatar: "not a file" }, /avatar must be a file: .*data: URI/],
    ];
    for (const [payload, message] of cases) {
      const res = await patchJson(server, alice.token, payload);
      const body = await expectError(res, 422, "PATCH", UPDATE);
      assert.match(body.error, message, JSON.stringify(payload));
    }
    // Several problems are reported together.
    const both = await expectError(
      await patchJson(server, alice.token, { display_name: "x".repeat(31), note: "y".repeat(501) }),
      422,
      "PATCH",
      UPDATE,
    );
    assert.match(both.error, /Display name is too long.*, Note is too long/);
    assert.ok(both.details.display_name && both.details.note);
    const after: Json = await (await server.request(VERIFY, { token: alice.token })).json();
    assert.deepEqual(after, before);
  });

  it("enforces write:accounts and a user token", async () => {
    const reader = await createUserWithToken(server, "reader", ["read"]);
    await expectError(await patchJson(server, reader.token, {}), 403, "PATCH", UPDATE);
    await expectError(
      await server.request(UPDATE, { method: "PATCH", body: "{}" }),
      401,
      "PATCH",
      UPDATE,
    );
    const granular = await createUserWithToken(server, "granular", ["write:accounts"]);
    assert.equal((await patchJson(server, granular.token, { display_name: "G" })).status, 200);
    const { token } = await createAppToken(server, ["write"]);
    await expectError(await patchJson(server, token, {}), 422, "PATCH", UPDATE);
  });

  it("keeps profile changes across a restart", async () => {
    const res = await patchJson(server, alice.token, {
      display_name: "Persistent",
      fields_attributes: { 0: { name: "Kept", value: "yes" } },
      source: { privacy: "private" },
    });
    assert.equal(res.status, 200);
    await server.restart();
    const body: Json = await (await server.request(VERIFY, { token: alice.token })).json();
    assert.equal(body.display_name, "Persistent");
    assert.deepEqual(body.source.fields, [{ name: "Kept", value: "yes", verified_at: null }]);
    assert.equal(body.source.privacy, "private");
  });
});
