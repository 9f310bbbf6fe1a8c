// POST/GET/PUT/DELETE /api/v1/push/subscription: one subscription per access token, the answer
// checked against Mastodon's WebPushSubscription entity; the `push` scope and a user token
// required; bad input refused with 4xx; the VAPID key the same on the subscription, the instance
// and the app; revoking the token removes the subscription.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { issueAccessToken } from "../../src/services/oauth/issue-access-token.ts";
import { registerApp } from "../../src/services/oauth/register-app.ts";
import { revokeToken } from "../../src/services/oauth/revoke-token.ts";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { newSubscriber } from "./push-service.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
type Json = any;

const PATH = "/api/v1/push/subscription";

describe("push subscription methods", () => {
  let server: TestServer;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice", ["read", "write", "push"]);
  });
  after(() => server.close());

  async function send(
    method: string,
    token: string | undefined,
    body?: URLSearchParams | Record<string, unknown>,
  ): Promise<{ status: number; body: Json }> {
    const init: RequestInit & { token?: string } = { method };
    if (token) init.token = token;
    if (body instanceof URLSearchParams) {
      init.headers = { "content-type": "application/x-www-form-urlencoded" };
      init.body = body.toString();
    } else if (body) {
      init.headers = { "content-type": "application/json" };
      init.body = JSON.stringify(body);
    }
    const res = await server.request(PATH, init);
    const json: Json = await res.json();
    if (res.status === 200 && method !== "DELETE") assertMatchesResponse(method, PATH, 200, json);
    return { status: res.status, body: json };
  }

  function subscribeForm(endpoint: string, extra: Record<string, string> = {}): URLSearchParams {
    const { p256dh, auth } = newSubscriber();
    return new URLSearchParams({
      "subscription[endpoint]": endpoint,
      "subscription[keys][p256dh]": p256dh,
      "subscription[keys][auth]": auth,
      ...extra,
    });
  }

  async function instanceKey(): Promise<string> {
    const res = await server.request("/api/v2/instance");
    return ((await res.json()) as Json).configuration.vapid.public_key;
  }

  it("subscribes with form parameters and answers the subscription with the VAPID key", async () => {
    const { status, body } = await send(
      "POST",
      alice.token,
      subscribeForm("https://push.example/send/a", {
        "subscription[standard]": "true",
        "data[alerts][mention]": "true",
        "data[alerts][favourite]": "1",
        "data[alerts][reblog]": "false",
        "data[alerts][admin.sign_up]": "true",
        "data[alerts][not_a_type]": "true",
        "data[policy]": "followed",
      }),
    );
    assert.equal(status, 200);
    assert.equal(body.endpoint, "https://push.example/send/a");
    assert.equal(body.standard, true);
    assert.equal(body.policy, "followed");
    assert.equal(body.alerts.mention, true);
    assert.equal(body.alerts.favourite, true);
    assert.equal(body.alerts.reblog, false);
    assert.equal(body.alerts["admin.sign_up"], true);
    assert.equal(body.alerts.follow, false, "an alert not given is off");
    assert.equal(body.alerts.not_a_type, undefined, "unknown types are ignored");
    // The key is an uncompressed P-256 point, and the same wherever it is shown.
    const key = Buffer.from(body.server_key, "base64url");
    assert.equal(key.length, 65);
    assert.equal(key[0], 4);
    assert.equal(body.server_key, await instanceKey());
    const app = await server.request("/api/v1/apps/verify_credentials", { token: alice.token });
    assert.equal(((await app.json()) as Json).vapid_key, body.server_key);

    const shown = await send("GET", alice.token);
    assert.deepEqual(shown, { status: 200, body });
  });

  it("replaces the subscription on a new POST, with a new id; legacy unless standard", async () => {
    const first = await send("POST", alice.token, subscribeForm("https://push.example/one"));
    const second = await send("POST", alice.token, {
      subscription: {
        endpoint: "https://push.example/two",
        keys: { p256dh: newSubscriber().p256dh, auth: newSubscriber().auth },
      },
      data: { alerts: { follow: true } },
    });
    assert.equal(second.status, 200);
    assert.notEqual(second.body.id, first.body.id);
    assert.equal(second.body.standard, false);
    assert.equal(second.body.policy, "all");
    assert.equal(second.body.alerts.follow, true);
    assert.equal((await send("GET", alice.token)).body.endpoint, "https://push.example/two");
  });

  it("changes only the alerts and policy on PUT (top-level policy too)", async () => {
    const made = await send(
      "POST",
      alice.token,
      subscribeForm("https://push.example/put", { "data[alerts][mention]": "true" }),
    );
    const changed = await send("PUT", alice.token, {
      data: { alerts: { favourite: true } },
      policy: "follower",
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.id, made.body.id);
    assert.equal(changed.body.endpoint, "https://push.example/put");
    assert.equal(changed.body.alerts.favourite, true);
    assert.equal(changed.body.alerts.mention, false, "PUT replaces the alerts, as Mastodon's");
    assert.equal(changed.body.policy, "follower");
    const form = await send(
      "PUT",
      alice.token,
      new URLSearchParams({ "data[policy]": "none", "data[alerts][poll]": "true" }),
    );
    assert.equal(form.body.policy, "none");
    assert.equal(form.body.alerts.poll, true);
  });

  it("keeps one subscription per token: another token of the same user has none", async () => {
    await send("POST", alice.token, subscribeForm("https://push.example/mine"));
    const app = await registerApp(server.wren.ctx, {
      clientName: "Second",
      redirectUris: "urn:ietf:wg:oauth:2.0:oob",
      scopes: "read push",
    });
    const other = await issueAccessToken(server.wren.ctx, {
      app: app.app,
      accountId: alice.account.id,
      scopes: ["push"],
      withRefreshToken: false,
    });
    assert.equal((await send("GET", other.secret)).status, 404);
    assert.equal((await send("PUT", other.secret, { policy: "all" })).status, 404);
    assert.equal((await send("GET", alice.token)).status, 200);
  });

  it("deletes the subscription, answering {} also when there is none", async () => {
    await send("POST", alice.token, subscribeForm("https://push.example/gone"));
    assert.deepEqual(await send("DELETE", alice.token), { status: 200, body: {} });
    const missing = await send("GET", alice.token);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: "Record not found" });
    assert.deepEqual(await send("DELETE", alice.token), { status: 200, body: {} });
  });

  it("needs a user token with the push scope", async () => {
    const form = () => subscribeForm("https://push.example/x");
    assert.equal((await send("POST", undefined, form())).status, 401);
    assert.equal((await send("GET", "not-a-token")).status, 401);
    const reader = await createUserWithToken(server, "reader", ["read", "write"]);
    for (const method of ["POST", "GET", "PUT", "DELETE"]) {
      const answer = await send(method, reader.token, method === "POST" ? form() : undefined);
      assert.equal(answer.status, 403, method);
    }
    const appOnly = await createAppToken(server, ["push"]);
    assert.equal((await send("POST", appOnly.token, form())).status, 422);
  });

  it("refuses bad input with 4xx and keeps what was there", async () => {
    const good = await send("POST", alice.token, subscribeForm("https://push.example/kept"));
    const { p256dh, auth } = newSubscriber();
    const cases: [string, Record<string, unknown>][] = [
      ["no subscription", { data: { alerts: { mention: true } } }],
      ["no keys", { subscription: { endpoint: "https://push.example/a" } }],
      ["no endpoint", { subscription: { keys: { p256dh, auth } } }],
      ["not a URL", { subscription: { endpoint: "not a url", keys: { p256dh, auth } } }],
      ["not http", { subscription: { endpoint: "ftp://push.example/", keys: { p256dh, auth } } }],
      [
        "not a P-256 key",
        { subscription: { endpoint: "https://p.example/", keys: { p256dh: "AAAA", auth } } },
      ],
      [
        "a point off the curve",
        {
          subscription: {
            endpoint: "https://p.example/",
            keys: { p256dh: Buffer.alloc(65, 4).toString("base64url"), auth },
          },
        },
      ],
      [
        "a short auth secret",
        { subscription: { endpoint: "https://p.example/", keys: { p256dh, auth: "AAAA" } } },
      ],
      [
        "an unknown policy",
        {
          subscription: { endpoint: "https://p.example/", keys: { p256dh, auth } },
          data: { policy: "friends" },
        },
      ],
      [
        "an alert that is not a boolean",
        {
          subscription: { endpoint: "https://p.example/", keys: { p256dh, auth } },
          data: { alerts: { mention: "perhaps" } },
        },
      ],
      ["keys as a string", { subscription: { endpoint: "https://p.example/", keys: "x" } }],
    ];
    for (const [name, body] of cases) {
      const answer = await send("POST", alice.token, body);
      assert.equal(answer.status, 422, `${name}: ${JSON.stringify(answer.body)}`);
      assert.equal(typeof answer.body.error, "string", name);
    }
    const put = await send("PUT", alice.token, { policy: "sometimes" });
    assert.equal(put.status, 422);
    const malformed = await server.request(PATH, {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    assert.equal(malformed.status, 400);
    assert.deepEqual((await send("GET", alice.token)).body, good.body);
  });

  it("moves the subscription to the token a refresh issues", async () => {
    const { app, clientSecret } = await registerApp(server.wren.ctx, {
      clientName: "Refreshing",
      redirectUris: "urn:ietf:wg:oauth:2.0:oob",
      scopes: "read push",
    });
    const issued = await issueAccessToken(server.wren.ctx, {
      app,
      accountId: alice.account.id,
      scopes: ["read", "push"],
      withRefreshToken: true,
    });
    const made = await send("POST", issued.secret, subscribeForm("https://push.example/moved"));
    const refresh = async (refreshToken: string, scope: string) => {
      const res = await server.request("/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: refreshToken,
          client_id: app.clientId,
          client_secret: clientSecret,
          scope,
        }).toString(),
      });
      assert.equal(res.status, 200);
      return (await res.json()) as Json;
    };
    const renewed = await refresh(issued.refreshSecret as string, "read push");
    const moved = await send("GET", renewed.access_token);
    assert.equal(moved.status, 200);
    assert.deepEqual(moved.body, made.body);
    assert.equal((await send("GET", issued.secret)).status, 401);
    // A refresh without the push scope ends the subscription.
    await refresh(renewed.refresh_token, "read");
    const left = await server.wren.ctx.storage.pushSubscriptions.listByAccount(alice.account.id);
    assert.ok(left.every((s) => s.endpoint !== "https://push.example/moved"));
  });

  it("removes the subscription when its token is revoked", async () => {
    const { app, clientSecret } = await registerApp(server.wren.ctx, {
      clientName: "Revoked",
      redirectUris: "urn:ietf:wg:oauth:2.0:oob",
      scopes: "push",
    });
    const { secret, token } = await issueAccessToken(server.wren.ctx, {
      app,
      accountId: alice.account.id,
      scopes: ["push"],
      withRefreshToken: false,
    });
    assert.equal((await send("POST", secret, subscribeForm("https://push.example/r"))).status, 200);
    await revokeToken(server.wren.ctx, {
      clientId: app.clientId,
      clientSecret,
      token: secret,
    });
    assert.equal(await server.wren.ctx.storage.pushSubscriptions.get(token.id), undefined);
  });
});
