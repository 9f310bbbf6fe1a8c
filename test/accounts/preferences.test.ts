// GET /api/v1/preferences: the posting defaults of the account's settings (the same ones
// update_credentials writes under `source`), and Mastodon's reading defaults.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const PREFERENCES = "/api/v1/preferences";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the schema
type Json = any;

describe("GET /api/v1/preferences", () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
  });
  after(() => server.close());

  async function preferences(token: string): Promise<Json> {
    const res = await server.request(PREFERENCES, { token });
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assertMatchesResponse("GET", PREFERENCES, 200, body);
    return body;
  }

  it("answers the defaults of a new account", async () => {
    assert.deepEqual(await preferences(alice.token), {
      "posting:default:visibility": "public",
      "posting:default:sensitive": false,
      "posting:default:language": null,
      "posting:default:quote_policy": "public",
      "reading:expand:media": "default",
      "reading:expand:spoilers": false,
    });
  });

  it("follows the posting defaults saved with update_credentials", async () => {
    const res = await server.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ source: { privacy: "private", sensitive: true, language: "de" } }),
    });
    assert.equal(res.status, 200);
    const body = await preferences(alice.token);
    assert.equal(body["posting:default:visibility"], "private");
    assert.equal(body["posting:default:sensitive"], true);
    assert.equal(body["posting:default:language"], "de");
  });

  it("needs a user token with read:accounts", async () => {
    const expect = async (token: string | undefined, status: number, error: RegExp) => {
      const res = await server.request(PREFERENCES, token === undefined ? {} : { token });
      const body: Json = await res.json();
      assert.equal(res.status, status, JSON.stringify(body));
      assertMatchesResponse("GET", PREFERENCES, status, body);
      assert.match(body.error, error);
    };
    await expect(undefined, 401, /token/i);
    const writer = await createUserWithToken(server, "writer", ["write"]);
    await expect(writer.token, 403, /outside the authorized scopes/);
    const narrow = await createUserWithToken(server, "narrow", ["read:accounts"]);
    assert.equal((await preferences(narrow.token))["posting:default:visibility"], "public");
    const { token } = await createAppToken(server, ["read"]);
    await expect(token, 422, /requires an authenticated user/);
  });
});
