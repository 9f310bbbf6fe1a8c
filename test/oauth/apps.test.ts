import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  type AppJson,
  type ErrorJson,
  OOB,
  postToken,
  REDIRECT,
  readJson,
  registerApp,
  type TokenJson,
} from "./helpers.ts";

describe("POST /api/v1/apps and GET /api/v1/apps/verify_credentials", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  it("registers an app from a JSON body with several redirect URIs", async () => {
    const res = await server.request("/api/v1/apps", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Test Application",
        redirect_uris: [REDIRECT, "https://client.example/register"],
        scopes: "read write push",
        website: "https://client.example",
      }),
    });
    assert.equal(res.status, 200);
    const body = await readJson<AppJson>(res);
    assertMatchesSchema(body, "CredentialApplication");
    assertMatchesResponse("POST", "/api/v1/apps", 200, body);
    assert.equal(body.name, "Test Application");
    assert.equal(body.website, "https://client.example");
    assert.deepEqual(body.scopes, ["read", "write", "push"]);
    assert.deepEqual(body.redirect_uris, [REDIRECT, "https://client.example/register"]);
    assert.equal(body.redirect_uri, `${REDIRECT}\nhttps://client.example/register`);
    assert.equal(body.client_secret_expires_at, 0);
    // The instance's Web Push key: an uncompressed P-256 point (test/push/ checks it is the one used).
    assert.equal(Buffer.from(body.vapid_key, "base64url").length, 65);
    assert.match(body.id, /^\d+$/);
    assert.ok((body.client_id ?? "").length >= 40);
    assert.ok((body.client_secret ?? "").length >= 40);
    assert.notEqual(body.client_id, body.client_secret);
  });

  it("registers an app from a form body with a newline-separated string and default scope", async () => {
    const res = await server.request("/api/v1/apps", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_name: "Form App", redirect_uris: `${OOB}\n${REDIRECT}` }),
    });
    assert.equal(res.status, 200);
    const body = await readJson<AppJson>(res);
    assertMatchesSchema(body, "CredentialApplication");
    assert.deepEqual(body.redirect_uris, [OOB, REDIRECT]);
    assert.deepEqual(body.scopes, ["read"]);
    assert.equal(body.website, null);
  });

  it("registers an app from a multipart body with redirect_uris[]", async () => {
    const form = new FormData();
    form.append("client_name", "Multipart App");
    form.append("redirect_uris[]", REDIRECT);
    form.append("redirect_uris[]", "com.example.app:/oauth");
    form.append("scopes", "read:statuses write:media");
    const res = await server.request("/api/v1/apps", { method: "POST", body: form });
    assert.equal(res.status, 200);
    const body = await readJson<AppJson>(res);
    assertMatchesSchema(body, "CredentialApplication");
    assert.deepEqual(body.redirect_uris, [REDIRECT, "com.example.app:/oauth"]);
    assert.deepEqual(body.scopes, ["read:statuses", "write:media"]);
  });

  const invalid: [string, Record<string, unknown>, RegExp][] = [
    [
      "a missing name",
      { redirect_uris: REDIRECT },
      /^Validation failed: Application name can't be blank$/,
    ],
    [
      "a blank name",
      { client_name: "  ", redirect_uris: REDIRECT },
      /Application name can't be blank/,
    ],
    [
      "a long name",
      { client_name: "x".repeat(61), redirect_uris: REDIRECT },
      /Application name is too long/,
    ],
    ["missing redirect URIs", { client_name: "A" }, /Redirect URI can't be blank/],
    [
      "a relative redirect URI",
      { client_name: "A", redirect_uris: "/callback" },
      /Redirect URI must be an absolute URI\./,
    ],
    [
      "a redirect URI with a fragment",
      { client_name: "A", redirect_uris: "https://a.example/cb#x" },
      /Redirect URI cannot contain a fragment/,
    ],
    [
      "a javascript: redirect URI",
      { client_name: "A", redirect_uris: "javascript:alert(1)" },
      /Redirect URI is forbidden/,
    ],
    [
      "an unknown scope",
      { client_name: "A", redirect_uris: REDIRECT, scopes: "read bogus" },
      /Scopes doesn't match configured on the server/,
    ],
    [
      "an invalid website",
      { client_name: "A", redirect_uris: REDIRECT, website: "not a url" },
      /Website is invalid/,
    ],
    ["a non-string name", { client_name: { a: 1 }, redirect_uris: REDIRECT }, /client_name/],
  ];
  for (const [what, body, message] of invalid) {
    it(`answers 422 for ${what}`, async () => {
      const res = await server.request("/api/v1/apps", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 422);
      const json = await readJson<ErrorJson>(res);
      assertMatchesSchema(json, "Error");
      assert.match(json.error, message);
    });
  }

  it("reports every validation failure at once", async () => {
    const res = await server.request("/api/v1/apps", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(res.status, 422);
    assert.equal(
      (await readJson<ErrorJson>(res)).error,
      "Validation failed: Application name can't be blank, Redirect URI can't be blank",
    );
  });

  it("answers 400, not 500, for a malformed JSON body", async () => {
    const res = await server.request("/api/v1/apps", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    assert.equal(res.status, 400);
    assert.equal(typeof (await readJson<ErrorJson>(res)).error, "string");
  });

  it("verifies credentials with a client_credentials token, without the secret", async () => {
    const app = await registerApp(server);
    const tokenRes = await postToken(server, {
      grant_type: "client_credentials",
      client_id: app.client_id,
      client_secret: app.client_secret,
    });
    assert.equal(tokenRes.status, 200);
    const { access_token } = await readJson<TokenJson>(tokenRes);
    const res = await server.request("/api/v1/apps/verify_credentials", { token: access_token });
    assert.equal(res.status, 200);
    const body = await readJson<AppJson>(res);
    assertMatchesSchema(body, "Application");
    assertMatchesResponse("GET", "/api/v1/apps/verify_credentials", 200, body);
    assert.equal(body.id, app.id);
    assert.equal(body.name, "Test Client");
    assert.deepEqual(body.redirect_uris, [REDIRECT, OOB]);
    assert.equal("client_secret" in body, false);
    assert.equal("client_id" in body, false);
  });

  it("answers 401 without a token or with a bad one", async () => {
    for (const init of [{}, { token: "nope" }, { headers: { authorization: "Bearer" } }]) {
      const res = await server.request("/api/v1/apps/verify_credentials", init);
      assert.equal(res.status, 401);
      const body = await readJson<ErrorJson>(res);
      assertMatchesResponse("GET", "/api/v1/apps/verify_credentials", 401, body);
      assert.equal(body.error, "The access token is invalid");
    }
  });
});
