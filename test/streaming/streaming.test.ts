// The streaming API on one server, over WebSocket and server-sent events: a scripted story
// between local accounts arrives in order and exactly as the REST API shows it to the
// subscriber (never a status they may not see, never a muted account's, `hide` filters honoured,
// `filtered` on warnings); multiplexed subscribe/unsubscribe; bad tokens and missing scopes
// refused; the health check; the advertised streaming URL is where streaming answers.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createAnnouncement } from "../../src/services/announcements/create-announcement.ts";
import { deleteAnnouncement } from "../../src/services/announcements/delete-announcement.ts";
import { issueAccessToken } from "../../src/services/oauth/issue-access-token.ts";
import { registerApp } from "../../src/services/oauth/register-app.ts";
import { endStreamingSessions } from "../../src/services/streaming/sessions.ts";
import { call, type Json } from "../graph/helpers.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesSchema } from "../helpers/openapi.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import {
  openEventStream,
  openWebSocket,
  type StreamEvent,
  type TestEventStream,
  type TestWebSocket,
} from "../helpers/streaming.ts";

describe("streaming API", () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dan: TestUser;

  async function ok(
    user: TestUser,
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    body?: Json,
  ) {
    const res = await call(server, method, path, user.token, body);
    assert.ok(
      res.status >= 200 && res.status < 300,
      `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`,
    );
    return res.body;
  }
  const post = (user: TestUser, status: string, extra: Json = {}) =>
    ok(user, "POST", "/api/v1/statuses", { status, ...extra });

  /** The next event, checked to be `event` about the status `id` (or with that id payload). */
  async function expectStatus(stream: { next(): Promise<StreamEvent> }, event: string, id: string) {
    const got = await stream.next();
    assert.equal(
      got.event,
      event,
      `expected ${event} ${id}, got ${got.event} ${got.payload?.slice(0, 200)}`,
    );
    const json = got.json as Json;
    assert.equal(json.id, id, `expected status ${id}, got ${json.id}: ${json.content}`);
    return got;
  }

  /** Waits until every subscription message sent so far is processed (they go in order). */
  async function barrier(ws: TestWebSocket) {
    ws.send({ type: "subscribe", stream: "no-such-stream" });
    const error = await ws.nextError();
    assert.equal(error.status, 400);
  }

  before(async () => {
    server = await startTestServer();
    alice = await createUserWithToken(server, "alice");
    bob = await createUserWithToken(server, "bob");
    carol = await createUserWithToken(server, "carol");
    dan = await createUserWithToken(server, "dan");
    await ok(alice, "POST", `/api/v1/accounts/${bob.account.id}/follow`);
    await ok(alice, "POST", `/api/v1/accounts/${carol.account.id}/follow`);
    await ok(alice, "POST", `/api/v1/accounts/${carol.account.id}/mute`);
  });
  after(() => server.close());

  it("answers the health check", async () => {
    const res = await server.request("/api/v1/streaming/health");
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "OK");
  });

  it("tells a user stream (WebSocket and server-sent events) the home timeline's story in order", async () => {
    const ws = await openWebSocket(server.url, { token: alice.token, query: { stream: "user" } });
    const sse = await openEventStream(server.url, "/api/v1/streaming/user", alice.token);
    assert.equal(sse.status, 200);
    try {
      await barrier(ws);
      const first = await post(bob, "Hello from bob");
      // Not for alice: a direct message between bob and carol, and anything of muted carol.
      await post(bob, `@carol just us`, { visibility: "direct" });
      await post(carol, "Carol speaks (muted)");
      const second = await post(bob, "Bob again", { visibility: "private" });
      await ok(bob, "PUT", `/api/v1/statuses/${second.id}`, { status: "Bob again, edited" });
      await ok(bob, "DELETE", `/api/v1/statuses/${first.id}`);
      const mine = await post(alice, "Alice posts");
      await ok(bob, "POST", `/api/v1/statuses/${mine.id}/favourite`);

      for (const stream of [ws, sse] as const) {
        const label = stream === ws ? "WebSocket" : "server-sent events";
        const hello = await expectStatus(stream, "update", first.id);
        if (stream === ws) assert.deepEqual(hello.stream, ["user"], label);
        // The very JSON the REST API gives alice.
        const rest = await ok(alice, "GET", `/api/v1/statuses/${first.id}`).catch(() => undefined);
        assertMatchesSchema(hello.json, "Status");
        assert.equal((hello.json as Json).account.id, bob.account.id);
        assert.equal((hello.json as Json).favourited, false);
        assert.equal(rest, undefined, "deleted since: the REST API no longer shows it");
        await expectStatus(stream, "update", second.id);
        const edited = await expectStatus(stream, "status.update", second.id);
        assert.match((edited.json as Json).content, /edited/);
        const deleted = await stream.next();
        assert.deepEqual([deleted.event, deleted.payload], ["delete", first.id], label);
        const own = await expectStatus(stream, "update", mine.id);
        assert.equal((own.json as Json).account.id, alice.account.id);
        const note = await stream.next();
        assert.equal(note.event, "notification", label);
        assertMatchesSchema(note.json, "Notification");
        assert.equal((note.json as Json).type, "favourite");
        assert.equal((note.json as Json).status.id, mine.id);
        assert.equal((note.json as Json).account.id, bob.account.id);
      }
    } finally {
      await ws.close();
      await sse.close();
    }
  });

  it("renders each status for its subscriber: their flags, and their filters (hide: not sent)", async () => {
    const ws = await openWebSocket(server.url, { token: alice.token, query: { stream: "user" } });
    try {
      await ok(alice, "POST", "/api/v2/filters", {
        title: "Plot",
        context: ["home"],
        filter_action: "hide",
        keywords_attributes: [{ keyword: "finale", whole_word: true }],
      });
      const warning = await ok(alice, "POST", "/api/v2/filters", {
        title: "Weather",
        context: ["home"],
        filter_action: "warn",
        keywords_attributes: [{ keyword: "rain", whole_word: true }],
      });
      const changed = [await ws.next(), await ws.next()];
      assert.deepEqual(
        changed.map((e) => [e.event, e.payload]),
        [
          ["filters_changed", undefined],
          ["filters_changed", undefined],
        ],
      );
      await post(bob, "The finale was great");
      const rainy = await post(bob, "Rain all day");
      const got = await expectStatus(ws, "update", rainy.id);
      const filtered = (got.json as Json).filtered;
      assert.equal(filtered.length, 1);
      assert.equal(filtered[0].filter.id, warning.id);
      assert.deepEqual(filtered[0].keyword_matches, ["Rain"]);
      // The same status as the REST API renders it for alice.
      const rest = await ok(alice, "GET", `/api/v1/statuses/${rainy.id}`);
      assert.deepEqual(
        { ...(got.json as Json), filtered: undefined },
        { ...rest, filtered: undefined },
      );
    } finally {
      await ws.close();
    }
  });

  it("keeps private statuses and muted accounts off the public streams", async () => {
    const sse = await openEventStream(server.url, "/api/v1/streaming/public", alice.token);
    const local = await openEventStream(
      server.url,
      "/api/v1/streaming/public/local?only_media=false",
      alice.token,
    );
    try {
      await post(dan, "Dan, followers only", { visibility: "private" });
      await post(dan, "Dan, unlisted", { visibility: "unlisted" });
      await post(carol, "Carol in public (muted by alice)");
      const open = await post(dan, "Dan in public");
      for (const stream of [sse, local]) {
        const got = await expectStatus(stream, "update", open.id);
        assertMatchesSchema(got.json, "Status");
      }
    } finally {
      await sse.close();
      await local.close();
    }
  });

  it("subscribes and unsubscribes several streams on one WebSocket", async () => {
    const ws = await openWebSocket(server.url, { token: alice.token, via: "query" });
    try {
      ws.send({ type: "subscribe", stream: "hashtag", tag: "Wren" });
      await barrier(ws);
      const tagged = await post(dan, "First #wren post");
      const got = await expectStatus(ws, "update", tagged.id);
      assert.deepEqual(got.stream, ["hashtag", "wren"]);

      ws.send({ type: "unsubscribe", stream: "hashtag", tag: "wren" });
      ws.send({ type: "subscribe", stream: "public:local" });
      ws.send({ type: "subscribe", stream: "user:notification" });
      await barrier(ws);
      const local = await post(dan, "Second #wren post, local");
      const onLocal = await expectStatus(ws, "update", local.id);
      assert.deepEqual(onLocal.stream, ["public:local"]);
      await ok(dan, "POST", `/api/v1/accounts/${alice.account.id}/follow`);
      const note = await ws.next();
      assert.deepEqual([note.stream, note.event], [["user:notification"], "notification"]);
      assert.equal((note.json as Json).type, "follow");
    } finally {
      await ws.close();
    }
  });

  it("takes the token from Sec-WebSocket-Protocol too", async () => {
    const ws = await openWebSocket(server.url, {
      token: alice.token,
      via: "protocol",
      query: { stream: "public" },
    });
    try {
      await barrier(ws);
      const open = await post(dan, "Seen through a protocol token");
      await expectStatus(ws, "update", open.id);
    } finally {
      await ws.close();
    }
  });

  it("streams a list's statuses to its owner only", async () => {
    const list = await ok(alice, "POST", "/api/v1/lists", { title: "Friends" });
    await ok(alice, "POST", `/api/v1/lists/${list.id}/accounts`, { account_ids: [bob.account.id] });
    const ws = await openWebSocket(server.url, {
      token: alice.token,
      query: { stream: "list", list: list.id },
    });
    try {
      await barrier(ws);
      const got = await post(bob, "For the list");
      const event = await expectStatus(ws, "update", got.id);
      assert.deepEqual(event.stream, ["list", list.id]);
      const refused = await openEventStream(
        server.url,
        `/api/v1/streaming/list?list=${list.id}`,
        dan.token,
      );
      assert.equal(refused.status, 401);
    } finally {
      await ws.close();
    }
  });

  it("sends a direct message's conversation on the direct stream", async () => {
    const ws = await openWebSocket(server.url, { token: carol.token, query: { stream: "direct" } });
    try {
      await barrier(ws);
      const message = await post(bob, "@carol a word in private", { visibility: "direct" });
      const got = await ws.next();
      assert.equal(got.event, "conversation");
      assertMatchesSchema(got.json, "Conversation");
      assert.equal((got.json as Json).last_status.id, message.id);
      assert.deepEqual(
        (got.json as Json).accounts.map((a: Json) => a.id),
        [bob.account.id],
      );
    } finally {
      await ws.close();
    }
  });

  it("tells the user stream of announcements, their reactions and their removal", async () => {
    const ws = await openWebSocket(server.url, { token: alice.token, query: { stream: "user" } });
    try {
      await barrier(ws);
      const created = await createAnnouncement(server.wren.ctx, { text: "Maintenance tonight" });
      const published = await ws.next();
      assert.equal(published.event, "announcement");
      assertMatchesSchema(published.json, "Announcement");
      assert.equal((published.json as Json).id, created.id);
      assert.equal((published.json as Json).read, false);

      await ok(
        bob,
        "PUT",
        `/api/v1/announcements/${created.id}/reactions/${encodeURIComponent("👍")}`,
      );
      const reaction = await ws.next();
      assert.equal(reaction.event, "announcement.reaction");
      assert.deepEqual(reaction.json, { name: "👍", count: 1, announcement_id: created.id });

      await deleteAnnouncement(server.wren.ctx, created.id);
      const removed = await ws.next();
      assert.deepEqual([removed.event, removed.payload], ["announcement.delete", created.id]);
    } finally {
      await ws.close();
    }
  });

  it("ends the streams of a token once it is revoked", async () => {
    const { app, clientSecret } = await registerApp(server.wren.ctx, {
      clientName: "Revoker",
      redirectUris: "urn:ietf:wg:oauth:2.0:oob",
      scopes: "read",
    });
    const issue = () =>
      issueAccessToken(server.wren.ctx, {
        app,
        accountId: alice.account.id,
        scopes: ["read"],
        withRefreshToken: false,
      });
    const [first, second] = [await issue(), await issue()];
    const ws = await openWebSocket(server.url, { token: first.secret, query: { stream: "user" } });
    const sse = await openEventStream(server.url, "/api/v1/streaming/user", second.secret);
    // Bounded, so that a stream left open fails the test instead of hanging it.
    const closed = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the stream stayed open")), 15_000);
      ws.ws.once("close", () => resolve(clearTimeout(timer)));
    });
    const res = await server.request("/oauth/revoke", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_id: app.clientId,
        client_secret: clientSecret,
        token: first.secret,
      }),
    });
    assert.equal(res.status, 200);
    await closed;
    // The other token's stream goes on.
    const still = await post(bob, "Still streaming");
    await expectStatus(sse, "update", still.id);
    await sse.close();
  });

  it("gives each public subscriber their own rendering of an edit: flags, filters, the author's", async () => {
    const [ivy, hal, jay, gus, kit] = [
      await createUserWithToken(server, "ivy"),
      await createUserWithToken(server, "hal"),
      await createUserWithToken(server, "jay"),
      await createUserWithToken(server, "gus"),
      await createUserWithToken(server, "kit"),
    ];
    await ok(gus, "POST", "/api/v2/filters", {
      title: "Sun",
      context: ["public"],
      filter_action: "warn",
      keywords_attributes: [{ keyword: "sunny", whole_word: true }],
    });
    // The author, a favourite, a bookmark, a matching filter, nothing at all.
    const viewers = [ivy, hal, jay, gus, kit];
    const sockets = await Promise.all(
      viewers.map((v) =>
        openWebSocket(server.url, { token: v.token, query: { stream: "public" } }),
      ),
    );
    try {
      const sunny = await post(ivy, "Sunny day ahead");
      await ok(hal, "POST", `/api/v1/statuses/${sunny.id}/favourite`);
      await ok(jay, "POST", `/api/v1/statuses/${sunny.id}/bookmark`);
      await ok(ivy, "PUT", `/api/v1/statuses/${sunny.id}`, { status: "Sunny day ahead, edited" });
      for (const [i, viewer] of viewers.entries()) {
        const ws = sockets[i] as TestWebSocket;
        await expectStatus(ws, "update", sunny.id);
        const edited = (await expectStatus(ws, "status.update", sunny.id)).json as Json;
        const rest = await ok(viewer, "GET", `/api/v1/statuses/${sunny.id}`);
        assert.deepEqual(
          { ...edited, filtered: undefined },
          { ...rest, filtered: undefined },
          viewer.account.username,
        );
        assert.equal(edited.filtered.length, viewer === gus ? 1 : 0, viewer.account.username);
      }
    } finally {
      await Promise.all(sockets.map((ws) => ws.close()));
    }
  });

  it("ends every stream of an account whose user is disabled, and refuses new ones", async () => {
    const dora = await createUserWithToken(server, "dora");
    const { secret } = await issueAccessToken(server.wren.ctx, {
      app: (
        await registerApp(server.wren.ctx, {
          clientName: "Second phone",
          redirectUris: "urn:ietf:wg:oauth:2.0:oob",
          scopes: "read",
        })
      ).app,
      accountId: dora.account.id,
      scopes: ["read"],
      withRefreshToken: false,
    });
    const sockets = [
      await openWebSocket(server.url, { token: dora.token, query: { stream: "user" } }),
      await openWebSocket(server.url, { token: secret, query: { stream: "public" } }),
    ];
    const closed = sockets.map(
      ({ ws }) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error("the stream stayed open")), 15_000);
          ws.once("close", () => resolve(clearTimeout(timer)));
        }),
    );
    const { storage } = server.wren.ctx;
    const user = await storage.users.get(dora.account.id);
    assert.ok(user);
    await storage.users.put({ ...user, disabled: true });
    await endStreamingSessions(server.wren.ctx, dora.account.id);
    await Promise.all(closed);
    await assert.rejects(openWebSocket(server.url, { token: secret }), { status: 401 });
  });

  it("refuses bad tokens and missing scopes", async () => {
    await assert.rejects(openWebSocket(server.url, { token: "not-a-token" }), { status: 401 });
    await assert.rejects(openWebSocket(server.url), { status: 401 });
    for (const token of ["not-a-token", undefined]) {
      const sse: TestEventStream & { body?: unknown } = await openEventStream(
        server.url,
        "/api/v1/streaming/public",
        token,
      );
      assert.equal(sse.status, 401);
      assert.equal(typeof (sse.body as Json).error, "string");
    }

    const writer = await createUserWithToken(server, "writer", ["write"]);
    const noRead = await openEventStream(server.url, "/api/v1/streaming/user", writer.token);
    assert.equal(noRead.status, 401);
    const ws = await openWebSocket(server.url, { token: writer.token, query: { stream: "user" } });
    try {
      const error = await ws.nextError();
      assert.deepEqual(error, {
        error: "Access token does not have the required scopes",
        status: 401,
      });
    } finally {
      await ws.close();
    }

    const reader = await createUserWithToken(server, "reader", ["read:statuses"]);
    const notifications = await openEventStream(
      server.url,
      "/api/v1/streaming/user/notification",
      reader.token,
    );
    assert.equal(notifications.status, 401);
    const missingTag = await openEventStream(server.url, "/api/v1/streaming/hashtag", reader.token);
    assert.equal(missingTag.status, 400);

    // A user stream carries notifications only for tokens that may read them.
    const poster = await createUserWithToken(server, "poster", ["read:statuses", "write:statuses"]);
    const home = await openWebSocket(server.url, {
      token: poster.token,
      query: { stream: "user" },
    });
    try {
      await barrier(home);
      await ok(dan, "POST", `/api/v1/accounts/${poster.account.id}/follow`);
      const own = await post(poster, "My own post");
      // Had the follow notification been sent, it would have come first.
      await expectStatus(home, "update", own.id);
    } finally {
      await home.close();
    }
  });
});

describe("the advertised streaming URL", () => {
  it("is the server's own origin over WebSockets, where streaming answers", async () => {
    const server = await startTestServer();
    try {
      const user = await createUserWithToken(server, "ursula");
      const instance: Json = await (await server.request("/api/v2/instance")).json();
      const base = instance.configuration.urls.streaming as string;
      assert.equal(base, server.url.replace(/^http/, "ws"));
      const v1: Json = await (await server.request("/api/v1/instance")).json();
      assert.equal(v1.urls.streaming_api, base);
      const ws = await openWebSocket(base.replace(/^ws/, "http"), { token: user.token });
      await ws.close();
    } finally {
      await server.close();
    }
  });

  it("is WREN_STREAMING_URL when set", async () => {
    const server = await startTestServer({ WREN_STREAMING_URL: "https://stream.social.example" });
    try {
      const instance: Json = await (await server.request("/api/v2/instance")).json();
      assert.equal(instance.configuration.urls.streaming, "wss://stream.social.example");
      const v1: Json = await (await server.request("/api/v1/instance")).json();
      assert.equal(v1.urls.streaming_api, "wss://stream.social.example");
    } finally {
      await server.close();
    }
  });
});
