// Mastodon's updates are Rails resources, answered for PUT and PATCH alike, and clients send
// either (masto.js, under Elk and Phanpy, sends PUT to the notification policy the docs show
// with PATCH). Every update route here answers both; the two methods Mastodon declares alone
// (update_credentials: PATCH; the media upload's PUT alias) are the exceptions.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { everyRoute } from "../helpers/routes.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field
type Json = any;

const ONE_METHOD_ONLY = new Set(["PATCH /api/v1/accounts/update_credentials", "PUT /api/v1/media"]);

describe("PUT and PATCH on every update route", () => {
  let server: TestServer;
  let alice: TestUser;
  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
  });
  after(() => server.close());

  async function send(method: string, path: string, json: unknown) {
    const res = await server.request(path, {
      method,
      token: alice.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(json),
    });
    const body: Json = await res.json();
    assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(body)}`);
    return body;
  }

  it("registers each update route for both methods", () => {
    const routes = new Set(everyRoute(server).map((r) => `${r.method} ${r.path}`));
    const updates = [...routes].filter((r) => /^(PUT|PATCH) /.test(r) && !ONE_METHOD_ONLY.has(r));
    assert.ok(updates.length > 10, `found ${updates.length} update routes`);
    for (const route of updates) {
      const path = route.slice(route.indexOf(" ") + 1);
      assert.ok(routes.has(`PUT ${path}`) && routes.has(`PATCH ${path}`), route);
    }
  });

  it("updates the notification policy by PUT, a list and a status by PATCH", async () => {
    const policy = await send("PUT", "/api/v2/notifications/policy", {
      for_not_following: "filter",
    });
    assert.equal(policy.for_not_following, "filter");

    const list = await send("POST", "/api/v1/lists", { title: "Before" });
    const renamed = await send("PATCH", `/api/v1/lists/${list.id}`, { title: "After" });
    assert.equal(renamed.title, "After");

    const status = await send("POST", "/api/v1/statuses", { status: "First" });
    const edited = await send("PATCH", `/api/v1/statuses/${status.id}`, { status: "Second" });
    assert.equal(edited.content, "<p>Second</p>");
    assert.notEqual(edited.edited_at, null);
  });
});
