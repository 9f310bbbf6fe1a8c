// Every route answers its path with a trailing slash as it answers the plain path: Mastodon.py
// asks for `/api/v1/instance/`, toot opens `/oauth/authorize/?…`. The routes are walked from the
// one shared list (test/helpers/routes.ts), so a new route is covered the day it is added.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { everyRoute, fillPath, type Route } from "../helpers/routes.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const ACCEPTS = ["application/activity+json", "text/html", "application/json"];

describe("a trailing slash on every route", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  /** Candidate values per parameter name, tried in turn until the plain path is found. */
  const values: Record<string, string[]> = {};
  /** Queries a route needs to answer more than a 400. */
  const queries: Record<string, string> = {};

  before(async () => {
    server = await startTestServer({
      WREN_RATE_LIMIT_REQUESTS: "1000000000",
      WREN_LOGIN_RATE_LIMIT_REQUESTS: "1000000000",
      WREN_LOGIN_ACCOUNT_RATE_LIMIT_REQUESTS: "1000000000",
    });
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
    const post = async (user: TestUser, path: string, body: unknown) => {
      const res = await server.request(path, {
        method: "POST",
        token: user.token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 200, path);
      return (await res.json()) as { id: string; poll?: { id: string } };
    };
    const status = await post(alice, "/api/v1/statuses", { status: "Hello @bob #wren" });
    const poll = await post(alice, "/api/v1/statuses", {
      status: "Which?",
      poll: { options: ["a", "b"], expires_in: 86400 },
    });
    await post(bob, `/api/v1/statuses/${status.id}/favourite`, {});
    const list = await post(alice, "/api/v1/lists", { title: "Friends" });
    const groups = (await (
      await server.request("/api/v2/notifications", { token: alice.token })
    ).json()) as { notification_groups: { group_key: string }[] };
    const notifications = (await (
      await server.request("/api/v1/notifications", { token: alice.token })
    ).json()) as { id: string }[];
    values.id = [
      status.id,
      poll.id,
      alice.account.id,
      bob.account.id,
      poll.poll?.id ?? "",
      list.id,
      ...notifications.map((n) => n.id),
    ];
    values.username = ["alice"];
    values.handle = ["@alice"];
    values.hashtag = ["wren"];
    // An account's feed, then a hashtag's (/tags/:feed, /@alice/tagged/:feed).
    values.feed = ["@alice.rss", "wren.rss"];
    values.group_key = groups.notification_groups.map((g) => g.group_key);
    const host = new URL(server.url).host;
    queries["/api/v1/accounts/lookup"] = "acct=alice";
    queries["/.well-known/webfinger"] = `resource=acct:alice@${host}`;
    queries["/oauth/authorize"] = new URLSearchParams({
      client_id: alice.app.clientId,
      response_type: "code",
      redirect_uri: "urn:ietf:wg:oauth:2.0:oob",
      scope: "read",
    }).toString();
  });
  after(() => server.close());

  /** The route's paths: its k-th filling takes the k-th candidate of each parameter (or the last). */
  function pathsFor(route: Route): string[] {
    const names: string[] = [];
    fillPath(route.path, (name) => {
      names.push(name);
      return "";
    });
    const count = Math.max(1, ...names.map((name) => (values[name] ?? ["1"]).length));
    return Array.from({ length: count }, (_, k) =>
      fillPath(route.path, (name) => {
        const candidates = values[name] ?? ["1"];
        return candidates[Math.min(k, candidates.length - 1)] as string;
      }),
    );
  }

  async function statusOf(method: string, path: string, headers: Record<string, string>) {
    const res = await server.request(path, { method, headers });
    // An event stream (the streaming API's server-sent events) never ends: its status is enough.
    if (res.headers.get("content-type")?.startsWith("text/event-stream")) await res.body?.cancel();
    else await res.arrayBuffer();
    return res.status;
  }

  it("answers a read with a trailing slash as without it", async () => {
    // The root already ends in its only slash.
    const routes = everyRoute(server).filter((r) => r.method === "GET" && r.path !== "/");
    assert.ok(routes.length > 40, `only ${routes.length} GET routes found`);
    const differences: string[] = [];
    let found = 0;
    for (const route of routes) {
      const query = queries[route.path] ? `?${queries[route.path]}` : "";
      for (const accept of ACCEPTS) {
        const headers = { accept, authorization: `Bearer ${alice.token}` };
        // The first filling the plain path answers with something other than 404.
        const paths = pathsFor(route);
        let path = paths[0] as string;
        let plain = 404;
        for (const candidate of paths) {
          plain = await statusOf("GET", `${candidate}${query}`, headers);
          path = candidate;
          if (plain !== 404) break;
        }
        if (plain !== 404) found++;
        const slashed = await statusOf("GET", `${path}/${query}`, headers);
        if (slashed !== plain)
          differences.push(`GET ${path}/${query} (${accept}): ${slashed}, plain ${plain}`);
      }
    }
    assert.deepEqual(differences, []);
    // Most reads found a record to answer, so the comparison is not between two 404s.
    assert.ok(found > routes.length * ACCEPTS.length * 0.8, `only ${found} reads answered`);
  });

  it("answers a write with a trailing slash as without it", async () => {
    const routes = everyRoute(server).filter((r) => r.method !== "GET" && r.method !== "HEAD");
    const differences: string[] = [];
    for (const route of routes) {
      // Without a token or a body, a write is refused (401, 400, 422) before it changes anything,
      // and refused the same way twice; an unknown route would answer 404.
      const path = pathsFor(route)[0] as string;
      const plain = await statusOf(route.method, path, {});
      const slashed = await statusOf(route.method, `${path}/`, {});
      if (slashed !== plain)
        differences.push(`${route.method} ${path}/: ${slashed}, plain ${plain}`);
      assert.notEqual(plain, 404, `${route.method} ${path} is not found`);
    }
    assert.deepEqual(differences, []);
  });

  it("takes a signed-in write at a path with a trailing slash", async () => {
    const res = await server.request("/api/v1/statuses/", {
      method: "POST",
      token: alice.token,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ status: "Posted with a slash" }),
    });
    assert.equal(res.status, 200);
    const { id } = (await res.json()) as { id: string };
    const favourite = await server.request(`/api/v1/statuses/${id}/favourite/`, {
      method: "POST",
      token: bob.token,
    });
    assert.equal(favourite.status, 200);
    assert.equal(((await favourite.json()) as { favourited: boolean }).favourited, true);
  });
});
