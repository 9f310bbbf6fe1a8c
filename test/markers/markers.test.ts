import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAppToken, createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
type Json = any;

const START = Date.parse("2026-03-15T12:34:56.789Z");

describe("GET and POST /api/v1/markers", () => {
  let server: TestServer;
  let now = START;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    server = await startTestServer({}, { clock: { now: () => new Date(now) } });
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
  });
  after(() => server.close());

  async function getMarkers(user: TestUser, query: string): Promise<Json> {
    const path = `/api/v1/markers${query}`;
    const res = await server.request(path, { token: user.token });
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assertMatchesResponse("GET", path, 200, body);
    return body;
  }

  async function postMarkers(user: TestUser, init: RequestInit): Promise<Json> {
    const res = await server.request("/api/v1/markers", {
      ...init,
      method: "POST",
      token: user.token,
    });
    const body: Json = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    assertMatchesResponse("POST", "/api/v1/markers", 200, body);
    return body;
  }

  const form = (fields: Record<string, string>): RequestInit => ({
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
  const json = (value: unknown): RequestInit => ({
    headers: { "content-type": "application/json" },
    body: JSON.stringify(value),
  });

  it("answers an empty object before anything is saved, and without timeline[]", async () => {
    assert.deepEqual(await getMarkers(alice, "?timeline[]=home&timeline[]=notifications"), {});
    assert.deepEqual(await getMarkers(alice, ""), {});
  });

  it("creates a marker at version 0, bumps the version on each change only", async () => {
    const created = await postMarkers(alice, form({ "home[last_read_id]": "103206604258487607" }));
    assert.deepEqual(created, {
      home: {
        last_read_id: "103206604258487607",
        version: 0,
        updated_at: "2026-03-15T12:34:56.789Z",
      },
    });
    assertMatchesSchema(created.home, "Marker");

    now += 60_000;
    const moved = await postMarkers(alice, form({ "home[last_read_id]": "103206604258487699" }));
    assert.deepEqual(moved.home, {
      last_read_id: "103206604258487699",
      version: 1,
      updated_at: "2026-03-15T12:35:56.789Z",
    });

    // The same position again changes nothing: same version, same time.
    now += 60_000;
    const same = await postMarkers(alice, form({ "home[last_read_id]": "103206604258487699" }));
    assert.deepEqual(same.home, moved.home);

    const read = await getMarkers(alice, "?timeline[]=home");
    assert.deepEqual(read, { home: moved.home });
  });

  it("saves both timelines from JSON and multipart bodies and reads them back", async () => {
    const both = await postMarkers(
      alice,
      json({
        notifications: { last_read_id: "35098814" },
        home: { last_read_id: 103206604258487800 },
      }),
    );
    // Answered in the order the client named them; a JSON number id is accepted.
    assert.deepEqual(Object.keys(both), ["notifications", "home"]);
    assert.equal(both.notifications.last_read_id, "35098814");
    assert.equal(both.notifications.version, 0);
    assert.equal(both.home.last_read_id, "103206604258487800");
    assert.equal(both.home.version, 2);

    const multipart = new FormData();
    multipart.set("notifications[last_read_id]", "35098999");
    const viaMultipart = await postMarkers(alice, { body: multipart });
    assert.deepEqual(Object.keys(viaMultipart), ["notifications"]);
    assert.equal(viaMultipart.notifications.version, 1);

    const read = await getMarkers(alice, "?timeline[]=home&timeline[]=notifications");
    assert.equal(read.home.last_read_id, "103206604258487800");
    assert.equal(read.home.version, 2);
    assert.equal(read.notifications.last_read_id, "35098999");
    assert.equal(read.notifications.version, 1);
    assertMatchesSchema(read.notifications, "Marker");

    // A single `timeline=` value works; unknown timelines are ignored.
    const onlyNotifications = await getMarkers(alice, "?timeline=notifications");
    assert.deepEqual(Object.keys(onlyNotifications), ["notifications"]);
    const withUnknown = await getMarkers(alice, "?timeline[]=public&timeline[]=home&timeline[]=x");
    assert.deepEqual(Object.keys(withUnknown), ["home"]);
  });

  it("ignores unknown timelines and other fields in a write", async () => {
    const res = await postMarkers(
      bob,
      json({ public: { last_read_id: "5" }, home: { last_read_id: "7", version: 99 } }),
    );
    assert.deepEqual(Object.keys(res), ["home"]);
    assert.equal(res.home.version, 0);
    assert.deepEqual(await postMarkers(bob, json({ public: { last_read_id: "5" } })), {});
  });

  it("keeps each user's markers apart", async () => {
    const carol = await createUserWithToken(server, "carol");
    assert.deepEqual(await getMarkers(carol, "?timeline[]=home&timeline[]=notifications"), {});
    const bobs = await getMarkers(bob, "?timeline[]=home&timeline[]=notifications");
    assert.deepEqual(Object.keys(bobs), ["home"]);
    assert.equal(bobs.home.last_read_id, "7");
  });

  it("refuses bad parameters with 422 (never 500) and leaves the marker alone", async () => {
    const before = await getMarkers(bob, "?timeline[]=home");
    const cases: RequestInit[] = [
      form({ "home[last_read_id]": "abc" }),
      form({ "home[last_read_id]": "" }),
      form({ home: "5" }),
      json({ home: { last_read_id: null } }),
      json({ home: {} }),
      json({ home: { last_read_id: ["1", "2"] } }),
      json({ home: "12" }),
      json({ home: { last_read_id: "9" }, notifications: { last_read_id: "-1" } }),
    ];
    for (const init of cases) {
      const res = await server.request("/api/v1/markers", {
        ...init,
        method: "POST",
        token: bob.token,
      });
      const body: Json = await res.json();
      assert.equal(res.status, 422, `${init.body}: ${JSON.stringify(body)}`);
      assert.match(body.error, /^Validation failed: /);
      // Mastodon renders a failed record validation as a bare `{"error"}` (no `details`, which
      // only sign-up has), so the generic Error schema applies rather than ValidationError.
      assertMatchesSchema(body, "Error");
    }
    // No part of a refused request was applied.
    assert.deepEqual(await getMarkers(bob, "?timeline[]=home"), before);
    assert.deepEqual(await getMarkers(bob, "?timeline[]=notifications"), {});

    const badJson = await server.request("/api/v1/markers", {
      method: "POST",
      token: bob.token,
      headers: { "content-type": "application/json" },
      body: "{nope",
    });
    assert.equal(badJson.status, 400);
    assert.ok(((await badJson.json()) as Json).error);

    const badQuery = await server.request("/api/v1/markers?timeline[a]=home", {
      token: bob.token,
    });
    assert.equal(badQuery.status, 422);
  });

  it("needs a user token with the right scope", async () => {
    const anonymous = await server.request("/api/v1/markers?timeline[]=home");
    assert.equal(anonymous.status, 401);
    const anonymousBody: Json = await anonymous.json();
    assert.deepEqual(anonymousBody, { error: "The access token is invalid" });
    assertMatchesResponse("GET", "/api/v1/markers", 401, anonymousBody);

    const badToken = await server.request("/api/v1/markers", {
      ...form({ "home[last_read_id]": "1" }),
      method: "POST",
      token: "not-a-token",
    });
    assert.equal(badToken.status, 401);

    const readOnly = await createUserWithToken(server, "reader", ["read:statuses"]);
    const writeOnly = await createUserWithToken(server, "writer", ["write:statuses"]);
    const other = await createUserWithToken(server, "other", ["read:accounts", "write:accounts"]);

    assert.equal(
      (await server.request("/api/v1/markers?timeline[]=home", { token: readOnly.token })).status,
      200,
    );
    const post = (token: string) =>
      server.request("/api/v1/markers", {
        ...form({ "home[last_read_id]": "1" }),
        method: "POST",
        token,
      });
    const forbidden = await post(readOnly.token);
    assert.equal(forbidden.status, 403);
    assert.deepEqual(await forbidden.json(), {
      error: "This action is outside the authorized scopes",
    });
    assert.equal((await post(writeOnly.token)).status, 200);
    assert.equal(
      (await server.request("/api/v1/markers?timeline[]=home", { token: writeOnly.token })).status,
      403,
    );
    assert.equal((await post(other.token)).status, 403);
    assert.equal((await server.request("/api/v1/markers", { token: other.token })).status, 403);

    // An app token (client_credentials) has no user to keep markers for.
    const { token: appToken } = await createAppToken(server, ["read", "write"]);
    assert.equal((await server.request("/api/v1/markers", { token: appToken })).status, 422);
    assert.equal((await post(appToken)).status, 422);
  });

  it("survives a restart", async () => {
    const before = await getMarkers(alice, "?timeline[]=home&timeline[]=notifications");
    await server.restart();
    assert.deepEqual(await getMarkers(alice, "?timeline[]=home&timeline[]=notifications"), before);
  });
});
