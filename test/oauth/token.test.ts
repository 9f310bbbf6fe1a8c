// POST /oauth/token beyond the authorization code (client_credentials, refresh, errors),
// POST /oauth/revoke, the discovery document, scope enforcement, and secrets at rest.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { storedTexts } from "../helpers/at-rest.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  createUser,
  credentialsOf,
  postToken,
  REDIRECT,
  type RegisteredApp,
  readJson,
  registerApp,
  UNTHROTTLED_LOGINS,
  userToken,
} from "./helpers.ts";

function basic(id: string, secret: string): Record<string, string> {
  return {
    authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`,
  };
}

describe("OAuth token endpoint, revocation and scopes", () => {
  let server: TestServer;
  let app: RegisteredApp;
  before(async () => {
    server = await startTestServer(UNTHROTTLED_LOGINS);
    await createUser(server, "alice");
    app = await registerApp(server);
  });
  after(() => server.close());

  describe("client_credentials", () => {
    it("issues an app token with the default read scope and no refresh token", async () => {
      const res = await postToken(server, {
        grant_type: "client_credentials",
        ...credentialsOf(app),
      });
      assert.equal(res.status, 200);
      const body = await readJson(res);
      assertMatchesSchema(body, "Token");
      assert.equal(body.scope, "read");
      assert.equal("refresh_token" in body, false);
    });

    it("takes client credentials from an HTTP Basic header and a form body", async () => {
      const res = await server.request("/oauth/token", {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...basic(app.client_id, app.client_secret),
        },
        body: "grant_type=client_credentials&scope=read+write",
      });
      assert.equal(res.status, 200);
      assert.equal((await readJson(res)).scope, "read write");
    });

    it("takes a multipart body", async () => {
      const form = new FormData();
      form.append("grant_type", "client_credentials");
      form.append("client_id", app.client_id);
      form.append("client_secret", app.client_secret);
      form.append("scope", "push");
      const res = await server.request("/oauth/token", { method: "POST", body: form });
      assert.equal(res.status, 200);
      assert.equal((await readJson(res)).scope, "push");
    });

    it("answers invalid_client (401) for a wrong or missing secret", async () => {
      const bodies: Record<string, string>[] = [
        { grant_type: "client_credentials", client_id: app.client_id, client_secret: "nope" },
        { grant_type: "client_credentials", client_id: app.client_id },
        { grant_type: "client_credentials", client_id: "unknown", client_secret: "x" },
      ];
      for (const body of bodies) {
        const res = await postToken(server, body);
        assert.equal(res.status, 401);
        const error = await readJson(res);
        assertMatchesResponse("POST", "/oauth/token", 401, error);
        assert.equal(error.error, "invalid_client");
        assert.match(String(error.error_description), /^Client authentication failed/);
      }
      const wrongBasic = await postToken(
        server,
        { grant_type: "client_credentials" },
        basic(app.client_id, "wrong"),
      );
      assert.equal(wrongBasic.status, 401);
    });

    it("answers invalid_scope for unknown scopes and scopes beyond the app's", async () => {
      const narrow = await registerApp(server, { scopes: "read" });
      for (const scope of ["write", "read bogus"]) {
        const res = await postToken(server, {
          grant_type: "client_credentials",
          ...credentialsOf(narrow),
          scope,
        });
        assert.equal(res.status, 400);
        const error = await readJson(res);
        assert.equal(error.error, "invalid_scope");
        assert.equal(
          error.error_description,
          "The requested scope is invalid, unknown, or malformed.",
        );
      }
    });
  });

  describe("grant types and malformed requests", () => {
    it("answers unsupported_grant_type for the implicit grant and nonsense", async () => {
      for (const grant_type of ["implicit", "x"]) {
        const res = await postToken(server, {
          grant_type,
          ...credentialsOf(app),
        });
        assert.equal(res.status, 400);
        assert.equal((await readJson(res)).error, "unsupported_grant_type");
      }
    });

    it("answers invalid_request for missing parameters", async () => {
      const cases: [Record<string, string>, string][] = [
        [{}, "grant_type"],
        [{ grant_type: "authorization_code", redirect_uri: REDIRECT }, "code"],
        [{ grant_type: "authorization_code", code: "x" }, "redirect_uri"],
        [{ grant_type: "refresh_token" }, "refresh_token"],
        [{ grant_type: "password", password: "x" }, "username"],
        [{ grant_type: "password", username: "alice" }, "password"],
      ];
      for (const [body, missing] of cases) {
        const res = await postToken(server, {
          ...body,
          ...credentialsOf(app),
        });
        assert.equal(res.status, 400);
        const error = await readJson(res);
        assert.equal(error.error, "invalid_request");
        assert.equal(error.error_description, `Missing required parameter: ${missing}.`);
      }
    });

    it("never answers 500 to malformed bodies", async () => {
      const bodies: [string, string][] = [
        ["application/json", "{broken"],
        ["application/json", "[1,2]"],
        ["application/json", '{"grant_type": ["client_credentials"]}'],
        ["application/json", '{"grant_type": "client_credentials", "client_id": 5}'],
        ["multipart/form-data; boundary=zzz", "not multipart"],
        ["application/x-www-form-urlencoded", "a[b][c][d][e][f][g][h][i][j]=1"],
        ["text/plain", "grant_type=client_credentials"],
      ];
      for (const [type, body] of bodies) {
        const res = await server.request("/oauth/token", {
          method: "POST",
          headers: { "content-type": type },
          body,
        });
        assert.equal(res.status, 400, `${type}: ${body}`);
        assert.equal(typeof (await readJson(res)).error, "string");
      }
      const invalidGrant = await postToken(server, {
        grant_type: "authorization_code",
        code: "made-up",
        redirect_uri: REDIRECT,
        ...credentialsOf(app),
      });
      assert.equal((await readJson(invalidGrant)).error, "invalid_grant");
    });
  });

  describe("refresh_token", () => {
    it("rotates: a new pair works, the old access and refresh tokens stop working", async () => {
      const first = await userToken(server, app, "read write");
      const res = await postToken(server, {
        grant_type: "refresh_token",
        refresh_token: first.refresh_token,
        ...credentialsOf(app),
      });
      assert.equal(res.status, 200);
      const second = await readJson(res);
      assertMatchesSchema(second, "Token");
      assert.equal(second.scope, "read write");
      assert.notEqual(second.access_token, first.access_token);
      assert.notEqual(second.refresh_token, first.refresh_token);

      const oldUse = await server.request("/api/v1/apps/verify_credentials", {
        token: first.access_token,
      });
      assert.equal(oldUse.status, 401);
      const newUse = await server.request("/api/v1/apps/verify_credentials", {
        token: String(second.access_token),
      });
      assert.equal(newUse.status, 200);

      const replay = await postToken(server, {
        grant_type: "refresh_token",
        refresh_token: first.refresh_token,
        ...credentialsOf(app),
      });
      assert.equal(replay.status, 400);
      assert.equal((await readJson(replay)).error, "invalid_grant");
    });

    it("may narrow the scopes but not widen them", async () => {
      const first = await userToken(server, app, "read write");
      const wider = await postToken(server, {
        grant_type: "refresh_token",
        refresh_token: first.refresh_token,
        ...credentialsOf(app),
        scope: "read write push",
      });
      assert.equal(wider.status, 400);
      assert.equal((await readJson(wider)).error, "invalid_scope");
      const narrower = await postToken(server, {
        grant_type: "refresh_token",
        refresh_token: first.refresh_token,
        ...credentialsOf(app),
        scope: "read:statuses",
      });
      assert.equal(narrower.status, 200);
      assert.equal((await readJson(narrower)).scope, "read:statuses");
    });

    it("refuses a refresh token of another app and a wrong client secret", async () => {
      const first = await userToken(server, app);
      const other = await registerApp(server, { client_name: "Other" });
      const foreign = await postToken(server, {
        grant_type: "refresh_token",
        refresh_token: first.refresh_token,
        ...credentialsOf(other),
      });
      assert.equal((await readJson(foreign)).error, "invalid_grant");
      const wrongSecret = await postToken(server, {
        grant_type: "refresh_token",
        refresh_token: first.refresh_token,
        client_id: app.client_id,
        client_secret: "wrong",
      });
      assert.equal(wrongSecret.status, 401);
    });

    it("requires the client secret (RFC 6749 §6), in the body or in HTTP Basic", async () => {
      const first = await userToken(server, app);
      // A stolen refresh token and the (public) client id are not enough, nor the token alone.
      const clients: Record<string, string>[] = [{ client_id: app.client_id }, {}];
      for (const client of clients) {
        const res = await postToken(server, {
          grant_type: "refresh_token",
          refresh_token: first.refresh_token,
          ...client,
        });
        assert.equal(res.status, 401);
        assert.equal((await readJson(res)).error, "invalid_client");
      }
      // The refusals spent nothing: the client with its secret (here by Basic) still refreshes.
      const viaBasic = await postToken(
        server,
        { grant_type: "refresh_token", refresh_token: first.refresh_token },
        basic(app.client_id, app.client_secret),
      );
      assert.equal(viaBasic.status, 200);
      assertMatchesSchema(await readJson(viaBasic), "Token");
    });
  });

  describe("POST /oauth/revoke", () => {
    it("revokes the client's own token; the token then answers 401", async () => {
      const { access_token } = await userToken(server, app);
      const res = await server.request("/oauth/revoke", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          ...credentialsOf(app),
          token: access_token,
        }),
      });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), {});
      const use = await server.request("/api/v1/apps/verify_credentials", { token: access_token });
      assert.equal(use.status, 401);
      // Idempotent.
      const again = await server.request("/oauth/revoke", {
        method: "POST",
        headers: { "content-type": "application/json", ...basic(app.client_id, app.client_secret) },
        body: JSON.stringify({ token: access_token }),
      });
      assert.equal(again.status, 200);
    });

    it("revokes by refresh token too", async () => {
      const { access_token, refresh_token } = await userToken(server, app);
      const res = await server.request("/oauth/revoke", {
        method: "POST",
        headers: { "content-type": "application/json", ...basic(app.client_id, app.client_secret) },
        body: JSON.stringify({ token: refresh_token }),
      });
      assert.equal(res.status, 200);
      const use = await server.request("/api/v1/apps/verify_credentials", { token: access_token });
      assert.equal(use.status, 401);
    });

    it("answers 200 for unknown tokens", async () => {
      const res = await server.request("/oauth/revoke", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          ...credentialsOf(app),
          token: "never-issued",
        }),
      });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), {});
    });

    it("refuses (403) without client authentication or for another client's token", async () => {
      const { access_token } = await userToken(server, app);
      const other = await registerApp(server, { client_name: "Other" });
      for (const credentials of [
        {},
        { client_id: app.client_id, client_secret: "wrong" },
        { client_id: other.client_id, client_secret: other.client_secret },
      ]) {
        const res = await server.request("/oauth/revoke", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ ...credentials, token: access_token }),
        });
        assert.equal(res.status, 403);
        const error = await readJson(res);
        assertMatchesResponse("POST", "/oauth/revoke", 403, error);
        assert.equal(error.error, "unauthorized_client");
        assert.equal(error.error_description, "You are not authorized to revoke this token");
      }
      const still = await server.request("/api/v1/apps/verify_credentials", {
        token: access_token,
      });
      assert.equal(still.status, 200);
    });
  });

  describe("scope enforcement", () => {
    it("admits a token holding the scope, 403 without it, 401 without a token", async () => {
      const profile = await userToken(server, app, "profile");
      const ok = await server.request("/oauth/userinfo", { token: profile.access_token });
      assert.equal(ok.status, 200);
      const info = await readJson(ok);
      assert.equal(info.preferred_username, "alice");
      assert.equal(info.iss, `${server.url}/`);
      assert.match(String(info.sub), /alice/);
      assert.equal(info.picture, `${server.url}/avatars/original/missing.png`);

      const readOnly = await userToken(server, app, "read");
      const denied = await server.request("/oauth/userinfo", { token: readOnly.access_token });
      assert.equal(denied.status, 403);
      assert.equal((await readJson(denied)).error, "This action is outside the authorized scopes");
      // RFC 6750's challenges, which OAuth libraries read to tell "renew" from "ask for more".
      assert.equal(
        denied.headers.get("www-authenticate"),
        'Bearer realm="Wren", error="insufficient_scope", error_description="This action is outside the authorized scopes", scope="profile"',
      );

      const invalid =
        'Bearer realm="Wren", error="invalid_token", error_description="The access token is invalid"';
      const missing = await server.request("/oauth/userinfo");
      assert.equal(missing.status, 401);
      assert.equal(missing.headers.get("www-authenticate"), invalid);
      const bad = await server.request("/api/v1/timelines/home", { token: "not-a-token" });
      assert.equal(bad.status, 401);
      assert.equal(bad.headers.get("www-authenticate"), invalid);
      const ok200 = await server.request("/api/v1/timelines/home", {
        token: (await userToken(server, app, "read")).access_token,
      });
      assert.equal(ok200.headers.get("www-authenticate"), null);
    });

    it("needs a user token where the route acts for a person (422 for app tokens)", async () => {
      const res = await postToken(server, {
        grant_type: "client_credentials",
        ...credentialsOf(app),
        scope: "profile",
      });
      const { access_token } = await readJson(res);
      const info = await server.request("/oauth/userinfo", { token: String(access_token) });
      assert.equal(info.status, 422);
    });
  });

  it("publishes the authorization server metadata", async () => {
    const res = await server.request("/.well-known/oauth-authorization-server");
    assert.equal(res.status, 200);
    const body = await readJson(res);
    assertMatchesResponse("GET", "/.well-known/oauth-authorization-server", 200, body);
    assert.equal(body.issuer, `${server.url}/`);
    assert.equal(body.authorization_endpoint, `${server.url}/oauth/authorize`);
    assert.equal(body.token_endpoint, `${server.url}/oauth/token`);
    assert.equal(body.revocation_endpoint, `${server.url}/oauth/revoke`);
    assert.equal(body.app_registration_endpoint, `${server.url}/api/v1/apps`);
    assert.deepEqual(body.response_types_supported, ["code"]);
    assert.deepEqual(body.code_challenge_methods_supported, ["S256"]);
    assert.ok((body.scopes_supported as string[]).includes("admin:write:canonical_email_blocks"));
    assert.deepEqual(body.grant_types_supported, [
      "authorization_code",
      "password",
      "client_credentials",
      "refresh_token",
    ]);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
  });

  it("keeps no token, refresh token, code or client secret at rest", async () => {
    const secrets = [app.client_secret];
    const token = await userToken(server, app);
    secrets.push(token.access_token, token.refresh_token);
    // Restart so everything buffered is on disk.
    await server.restart();
    const stored = await storedTexts(server);
    assert.ok(stored.length > 0);
    for (const { where, text } of stored) {
      for (const secret of secrets) {
        assert.equal(text.includes(secret), false, `${where} contains a secret`);
      }
    }
    // The tokens still work after the restart (their hashes were stored).
    const use = await server.request("/api/v1/apps/verify_credentials", {
      token: token.access_token,
    });
    assert.equal(use.status, 200);
  });
});
