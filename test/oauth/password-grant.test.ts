// The password grant at POST /oauth/token over real HTTP, as toot's `login_cli` and Mastodon.py's
// `log_in` use it: client credentials plus the person's login and password, answered with
// Mastodon's Token entity, or with invalid_grant for wrong credentials.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  createUser,
  credentialsOf,
  type ErrorJson,
  PASSWORD,
  postToken,
  REDIRECT,
  type RegisteredApp,
  readJson,
  registerApp,
  type TokenJson,
  UNTHROTTLED_LOGINS,
} from "./helpers.ts";

describe("OAuth password grant", () => {
  let server: TestServer;
  let app: RegisteredApp;
  let aliceId: string;
  before(async () => {
    server = await startTestServer(UNTHROTTLED_LOGINS);
    aliceId = (await createUser(server, "alice")).accountId;
    app = await registerApp(server);
  });
  after(() => server.close());

  /** A password grant for `username` with the app's credentials; `extra` adds or replaces. */
  function passwordGrant(username: string, password: string, extra: Record<string, string> = {}) {
    return postToken(server, {
      grant_type: "password",
      ...credentialsOf(app),
      username,
      password,
      ...extra,
    });
  }

  async function accountOf(token: string): Promise<string> {
    const res = await server.request("/api/v1/accounts/verify_credentials", { token });
    assert.equal(res.status, 200);
    return (await readJson<{ id: string }>(res)).id;
  }

  it("signs in by email address and by username and answers a Token", async () => {
    for (const username of ["alice@mail.example", "alice", "@Alice"]) {
      const res = await passwordGrant(username, PASSWORD, { scope: "read write" });
      assert.equal(res.status, 200, await res.clone().text());
      assert.equal(res.headers.get("cache-control"), "no-store");
      const token = await readJson<TokenJson>(res);
      assertMatchesSchema(token, "Token");
      assertMatchesResponse("POST", "/oauth/token", 200, token);
      assert.equal(token.token_type, "Bearer");
      assert.equal(token.scope, "read write");
      assert.equal(typeof token.refresh_token, "string");
      assert.equal(await accountOf(token.access_token), aliceId);
    }
  });

  it("takes a form body with client credentials by HTTP Basic, as command-line clients send it", async () => {
    // Mastodon.py also sends redirect_uri; parameters the grant does not use are ignored.
    const res = await server.request("/oauth/token", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString("base64")}`,
      },
      body: new URLSearchParams({
        grant_type: "password",
        username: "alice@mail.example",
        password: PASSWORD,
        redirect_uri: REDIRECT,
      }).toString(),
    });
    assert.equal(res.status, 200);
    // Without a scope the token gets the default, read.
    assert.equal((await readJson<TokenJson>(res)).scope, "read");
  });

  it("answers invalid_grant for a wrong password, an unknown login and a disabled user", async () => {
    const { accountId } = await createUser(server, "carol");
    const carol = await server.wren.ctx.storage.users.get(accountId);
    assert.ok(carol);
    await server.wren.ctx.storage.users.put({ ...carol, disabled: true });
    for (const [username, password] of [
      ["alice", "wrong password"],
      ["nobody@mail.example", PASSWORD],
      ["carol", PASSWORD],
    ] as const) {
      const res = await passwordGrant(username, password);
      assert.equal(res.status, 400);
      const error = await readJson<ErrorJson>(res);
      assert.equal(error.error, "invalid_grant");
      assert.equal(typeof error.error_description, "string");
      assertMatchesResponse("POST", "/oauth/token", 400, error);
    }
  });

  it("requires the client to authenticate", async () => {
    const clients: Record<string, string>[] = [
      { client_secret: "" },
      { client_secret: "wrong" },
      { client_id: "unknown" },
    ];
    for (const client of clients) {
      const res = await passwordGrant("alice", PASSWORD, client);
      assert.equal(res.status, 401);
      assert.equal((await readJson<ErrorJson>(res)).error, "invalid_client");
    }
  });

  it("grants only scopes the app registered", async () => {
    const readOnly = await registerApp(server, { client_name: "Reader", scopes: "read" });
    for (const scope of ["read write", "nonsense"]) {
      const res = await postToken(server, {
        grant_type: "password",
        ...credentialsOf(readOnly),
        username: "alice",
        password: PASSWORD,
        scope,
      });
      assert.equal(res.status, 400);
      assert.equal((await readJson<ErrorJson>(res)).error, "invalid_scope");
    }
    const narrower = await passwordGrant("alice", PASSWORD, { scope: "read:statuses" });
    assert.equal((await readJson<TokenJson>(narrower)).scope, "read:statuses");
  });
});
