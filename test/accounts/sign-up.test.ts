import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAppToken, createUserWithToken } from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const SIGN_UP = "/api/v1/accounts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
type Json = any;

function signUp(server: TestServer, token: string | undefined, body: Record<string, unknown>) {
  return server.request(SIGN_UP, {
    method: "POST",
    ...(token ? { token } : {}),
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const VALID = {
  username: "newbie",
  email: "newbie@mail.example",
  password: "a long enough password",
  agreement: true,
  locale: "en",
};

describe("POST /api/v1/accounts with open registrations", () => {
  let server: TestServer;
  let appToken: string;
  before(async () => {
    server = await startTestServer({ WREN_REGISTRATIONS: "open" });
    appToken = (await createAppToken(server, ["read", "write"])).token;
  });
  after(() => server.close());

  it("creates the account and answers a working user token for the same app", async () => {
    const res = await signUp(server, appToken, VALID);
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assertMatchesResponse("POST", SIGN_UP, 200, body);
    assert.equal(body.token_type, "Bearer");
    assert.equal(body.scope, "read write follow push profile");
    assert.equal(typeof body.created_at, "number");

    const me = await server.request("/api/v1/accounts/verify_credentials", {
      token: body.access_token,
    });
    const account: Json = await me.json();
    assert.equal(me.status, 200);
    assert.equal(account.username, "newbie");
    assert.equal(account.url, `${server.url}/@newbie`);
  });

  it("accepts form bodies with agreement as a string", async () => {
    const res = await server.request(SIGN_UP, {
      method: "POST",
      token: appToken,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        username: "formuser",
        email: "form@mail.example",
        password: "another good password",
        agreement: "1",
        locale: "de",
      }).toString(),
    });
    assert.equal(res.status, 200, await res.clone().text());
    const user = await server.wren.ctx.storage.accounts.findByUsername("formuser", null);
    assert.ok(user);
    assert.equal((await server.wren.ctx.storage.users.get(user.id))?.locale, "de");
  });

  it("reports every problem at once with Mastodon's details", async () => {
    const res = await signUp(server, appToken, {
      username: "bad name!",
      email: "not-an-email",
      password: "short",
      agreement: false,
    });
    const body: Json = await res.json();
    assert.equal(res.status, 422);
    assertMatchesResponse("POST", SIGN_UP, 422, body);
    assert.equal(
      body.error,
      "Validation failed: Username must contain only letters, numbers and underscores, " +
        "Email is invalid, Password is too short (minimum is 8 characters), Agreement must be accepted",
    );
    assert.deepEqual(body.details.username, [
      { error: "ERR_INVALID", description: "must contain only letters, numbers and underscores" },
    ]);
    assert.equal(body.details.email[0].error, "ERR_INVALID");
    assert.equal(body.details.password[0].error, "ERR_TOO_SHORT");
    assert.equal(body.details.agreement[0].error, "ERR_ACCEPTED");
  });

  it("refuses taken (any case), reserved, blank and too long values", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ username: "NEWBIE", email: "x1@mail.example" }, "username", "ERR_TAKEN"],
      [{ username: "other1", email: "NEWBIE@mail.example" }, "email", "ERR_TAKEN"],
      [{ username: "admin", email: "x2@mail.example" }, "username", "ERR_RESERVED"],
      [{ username: "Webmaster", email: "x3@mail.example" }, "username", "ERR_RESERVED"],
      [{ username: "", email: "x4@mail.example" }, "username", "ERR_BLANK"],
      [{ username: "a".repeat(31), email: "x5@mail.example" }, "username", "ERR_TOO_LONG"],
      [{ username: "other2", email: "" }, "email", "ERR_BLANK"],
      [
        { username: "other3", email: "x6@mail.example", password: "p".repeat(73) },
        "password",
        "ERR_TOO_LONG",
      ],
      [{ username: "other4", email: "x7@mail.example", password: "" }, "password", "ERR_BLANK"],
      [
        { username: "other5", email: "x8@mail.example", agreement: undefined },
        "agreement",
        "ERR_ACCEPTED",
      ],
    ];
    for (const [change, field, code] of cases) {
      const res = await signUp(server, appToken, { ...VALID, ...change });
      const body: Json = await res.json();
      assert.equal(res.status, 422, JSON.stringify(change));
      assert.deepEqual(Object.keys(body.details), [field], JSON.stringify(body));
      assert.equal(body.details[field][0].error, code, JSON.stringify(change));
    }
    const taken: Json = await (
      await signUp(server, appToken, { ...VALID, email: "y@mail.example" })
    ).json();
    assert.equal(taken.error, "Validation failed: Username has already been taken");
  });

  it("lets only one of two simultaneous sign-ups for one name through", async () => {
    const results = await Promise.all(
      ["race1@mail.example", "race2@mail.example"].map((email) =>
        signUp(server, appToken, { ...VALID, username: "racer", email }),
      ),
    );
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 422]);
  });

  it("needs a token with write:accounts", async () => {
    assert.equal((await signUp(server, undefined, VALID)).status, 401);
    const readOnly = (await createAppToken(server, ["read"])).token;
    const res = await signUp(server, readOnly, {
      ...VALID,
      username: "ro",
      email: "ro@mail.example",
    });
    assert.equal(res.status, 403);
    assertMatchesSchema(await res.json(), "Error");
  });
});

describe("POST /api/v1/accounts when registrations are closed", () => {
  it(`answers 403 "This action is not allowed"`, async () => {
    const server = await startTestServer({ WREN_REGISTRATIONS: "closed" });
    try {
      const { token } = await createAppToken(server, ["write"]);
      const res = await signUp(server, token, VALID);
      const body: Json = await res.json();
      assert.equal(res.status, 403);
      assert.deepEqual(body, { error: "This action is not allowed" });
      assert.equal(
        await server.wren.ctx.storage.accounts.findByUsername("newbie", null),
        undefined,
      );
      // The operator can still create accounts.
      const made = await createUserWithToken(server, "operator_made");
      assert.ok(made.account.id);
    } finally {
      await server.close();
    }
  });
});
