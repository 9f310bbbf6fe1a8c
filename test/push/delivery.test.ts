// Web Push end to end: notifications made through the real endpoints reach a push service on
// loopback, which decrypts each message with the subscriber's own keys (aes128gcm for a
// `standard` subscription, aesgcm otherwise) and checks the VAPID signature against the key
// the instance publishes. Alerts and policy decide what is sent; filtered notifications are
// not; a 500 is tried again; a 410 removes the subscription; held pushes go out even when the
// release after the notification's write never came.

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Notification } from "../../src/domain/notification.ts";
import { issueAccessToken } from "../../src/services/oauth/issue-access-token.ts";
import { holdPushes, PUSH_HOLD_MS } from "../../src/services/push/hold-pushes.ts";
import {
  createTestApp,
  createUsers,
  createUserWithToken,
  type TestUser,
} from "../helpers/accounts.ts";
import { eventually } from "../helpers/federation.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { act, call, type Json, postStatus } from "../notifications/helpers.ts";
import { movableClock } from "../polls/helpers.ts";
import {
  decrypt,
  newSubscriber,
  type PushService,
  type ReceivedPush,
  type Subscriber,
  startPushService,
  verifyVapid,
} from "./push-service.ts";

describe("Web Push delivery", () => {
  const clock = movableClock(new Date().toISOString());
  let server: TestServer;
  let service: PushService;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let vapidKey: string;
  /** alice's phone: RFC 8291, mentions, favourites, boosts and follows from anyone. */
  const phone = newSubscriber();
  let phoneToken: string;
  /** alice's older app: legacy aesgcm, mentions only, from accounts she follows. */
  const legacy = newSubscriber();
  let legacyToken: string;

  const pushesTo = (name: string) =>
    service.received.filter((push) => push.path === `/push/${name}`);

  async function subscribe(
    token: string,
    name: string,
    subscriber: Subscriber,
    standard: boolean,
    data: Json,
  ): Promise<void> {
    await call(server, "POST", "/api/v1/push/subscription", {
      token,
      json: {
        subscription: {
          endpoint: service.endpoint(name),
          keys: { p256dh: subscriber.p256dh, auth: subscriber.auth },
          standard,
        },
        data,
      },
    });
  }

  /** Runs the due jobs until `name` has received `count` messages in all. */
  async function received(name: string, count: number): Promise<ReceivedPush[]> {
    return eventually(async () => {
      await server.wren.jobs.runDue();
      const pushes = pushesTo(name);
      assert.equal(pushes.length, count, `messages to ${name}`);
      return pushes;
    });
  }

  const last = (pushes: ReceivedPush[]) => pushes[pushes.length - 1] as ReceivedPush;

  async function newestNotificationId(user: TestUser): Promise<string> {
    const [newest] = await call(server, "GET", "/api/v1/notifications?limit=1", {
      token: user.token,
    });
    return newest.id;
  }

  before(async () => {
    service = await startPushService();
    server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" }, { clock });
    alice = await createUserWithToken(server, "alice", ["read", "write", "follow", "push"]);
    [bob, carol] = await createUsers(server, "bob", "carol");
    phoneToken = alice.token;
    const { secret } = await issueAccessToken(server.wren.ctx, {
      app: await createTestApp(server, "Legacy"),
      accountId: alice.account.id,
      scopes: ["push"],
      withRefreshToken: false,
    });
    legacyToken = secret;
    await subscribe(phoneToken, "phone", phone, true, {
      alerts: { mention: true, favourite: true, reblog: true, follow: true },
      policy: "all",
    });
    await subscribe(legacyToken, "legacy", legacy, false, {
      alerts: { mention: true },
      policy: "followed",
    });
    await act(server, alice, `/api/v1/accounts/${bob.account.id}/follow`);
    const instance = (await (await server.request("/api/v2/instance")).json()) as Json;
    vapidKey = instance.configuration.vapid.public_key;
  });
  after(async () => {
    await server.close();
    await service.close();
  });

  it("encrypts a favourite for the phone (aes128gcm), signed with the instance's key", async () => {
    const status = await postStatus(server, alice, "Tea <and> cake & more");
    await act(server, bob, `/api/v1/statuses/${status.id}/favourite`);
    const push = last(await received("phone", 1));
    const id = await newestNotificationId(alice);

    assert.equal(push.headers["content-encoding"], "aes128gcm");
    assert.equal(push.headers["content-type"], "application/octet-stream");
    assert.equal(push.headers.ttl, "172800");
    assert.equal(push.headers.urgency, "normal");
    verifyVapid(push, vapidKey, service.endpoint("phone"));
    const text = decrypt(phone, push);
    // The id is a JSON number written with all its digits, as Mastodon writes it.
    assert.ok(text.includes(`"notification_id":${id},`), text);
    const payload = JSON.parse(text);
    assert.equal(payload.access_token, phoneToken);
    assert.equal(payload.notification_type, "favourite");
    assert.equal(payload.title, "bob favorited your post");
    assert.equal(payload.body, "Tea <and> cake & more");
    assert.equal(typeof payload.preferred_locale, "string");
    assert.match(payload.icon, /^http:\/\/127\.0\.0\.1:\d+\/avatars\/original\/missing\.png$/);
    // The legacy subscription has favourites off: nothing for it.
    assert.equal(pushesTo("legacy").length, 0);
  });

  it("sends a mention from a followed account to both, the legacy app in aesgcm", async () => {
    await postStatus(server, bob, `@alice ${"long ".repeat(40)}`);
    await received("phone", 2);
    const push = last(await received("legacy", 1));
    assert.equal(push.headers["content-encoding"], "aesgcm");
    assert.equal(push.headers.ttl, "172800");
    assert.equal(push.headers.urgency, "normal");
    verifyVapid(push, vapidKey, service.endpoint("legacy"));
    const payload = JSON.parse(decrypt(legacy, push));
    assert.equal(payload.access_token, legacyToken);
    assert.equal(payload.notification_type, "mention");
    assert.equal(payload.title, "You were mentioned by bob");
    // Cut at 140 characters, as Mastodon does.
    assert.equal([...payload.body].length, 140);
    assert.ok(payload.body.endsWith("..."));
  });

  it("honours the policy: a mention from someone alice does not follow skips the legacy app", async () => {
    await postStatus(server, carol, "@alice hello from carol");
    const push = last(await received("phone", 3));
    assert.equal(JSON.parse(decrypt(phone, push)).title, "You were mentioned by carol");
    assert.equal(pushesTo("legacy").length, 1);
  });

  it("does not push a notification the notification policy filtered", async () => {
    // A private mention from someone alice does not follow is filtered by default.
    await postStatus(server, carol, "@alice psst", { visibility: "direct" });
    const requests = await call(server, "GET", "/api/v1/notifications/requests", {
      token: alice.token,
    });
    assert.deepEqual(
      requests.map((r: Json) => r.account.username),
      ["carol"],
      "the mention was held back as filtered",
    );
    const status = await postStatus(server, alice, "another one");
    await act(server, carol, `/api/v1/statuses/${status.id}/favourite`);
    const push = last(await received("phone", 4));
    assert.equal(JSON.parse(decrypt(phone, push)).notification_type, "favourite");
    await server.wren.jobs.runDue();
    assert.equal(pushesTo("phone").length, 4, "the filtered mention was not pushed");
  });

  it("tries a push again after a 500", async () => {
    service.answer("phone", 500);
    const status = await postStatus(server, alice, "boost me");
    await act(server, bob, `/api/v1/statuses/${status.id}/reblog`);
    const failed = last(await received("phone", 5));
    service.answer("phone", 201);
    // The queue's first retry comes 10 seconds later.
    clock.advance(11_000);
    const retried = last(await received("phone", 6));
    const first = JSON.parse(decrypt(phone, failed));
    const second = JSON.parse(decrypt(phone, retried));
    assert.equal(second.notification_type, "reblog");
    assert.equal(second.notification_id, first.notification_id);
    assert.equal(
      (await server.request("/api/v1/push/subscription", { token: phoneToken })).status,
      200,
    );
  });

  it("removes the subscription the push service answers 410 for", async () => {
    service.answer("legacy", 410);
    await postStatus(server, bob, "@alice are you there?");
    await received("legacy", 2);
    await received("phone", 7);
    await eventually(async () => {
      const res = await server.request("/api/v1/push/subscription", { token: legacyToken });
      assert.equal(res.status, 404);
    });
    const phoneSubscription = await server.request("/api/v1/push/subscription", {
      token: phoneToken,
    });
    assert.equal(phoneSubscription.status, 200);
    // Nothing more goes to it.
    await postStatus(server, bob, "@alice still?");
    await received("phone", 8);
    assert.equal(pushesTo("legacy").length, 2);
  });

  it("sends held pushes once their hold ends when the release never came", async () => {
    const { ctx } = server.wren;
    const made = (id: string): Notification => ({
      id,
      accountId: alice.account.id,
      type: "follow",
      fromAccountId: carol.account.id,
      statusId: null,
      groupKey: `ungrouped-${id}`,
      createdAt: ctx.clock.now().toISOString(),
    });
    // Written, but the process died before the release.
    const written = made(ctx.ids.next());
    await holdPushes(ctx, written);
    await ctx.storage.notifications.put(written);
    // Held, and the process died before the write.
    await holdPushes(ctx, made(ctx.ids.next()));
    await server.wren.jobs.runDue();
    assert.equal(pushesTo("phone").length, 8, "held until the hold ends");
    clock.advance(PUSH_HOLD_MS + 1_000);
    const push = last(await received("phone", 9));
    const text = decrypt(phone, push);
    assert.ok(text.includes(`"notification_id":${written.id},`));
    assert.equal(JSON.parse(text).title, "carol is now following you");
    await server.wren.jobs.runDue();
    assert.equal(pushesTo("phone").length, 9, "no push for a notification never written");
  });

  it("honours the follower and none policies, as changed by PUT", async () => {
    const put = (policy: string) =>
      call(server, "PUT", "/api/v1/push/subscription", {
        token: phoneToken,
        json: { data: { alerts: { mention: true }, policy } },
      });
    await put("follower");
    const before = pushesTo("phone").length;
    // bob does not follow alice: his mention is not pushed; carol, who follows her now, is.
    await postStatus(server, bob, "@alice from bob");
    await act(server, carol, `/api/v1/accounts/${alice.account.id}/follow`);
    await postStatus(server, carol, "@alice from a follower");
    const push = last(await received("phone", before + 1));
    assert.equal(JSON.parse(decrypt(phone, push)).title, "You were mentioned by carol");
    await put("none");
    await postStatus(server, carol, "@alice nobody hears this");
    await server.wren.jobs.runDue();
    assert.equal(pushesTo("phone").length, before + 1);
  });

  it("gives a push up after its fifth attempt, keeping the subscription and no failed job", async () => {
    await call(server, "PUT", "/api/v1/push/subscription", {
      token: phoneToken,
      json: { data: { alerts: { favourite: true } }, policy: "all" },
    });
    service.answer("phone", 503);
    const before = pushesTo("phone").length;
    const status = await postStatus(server, alice, "down for a while");
    await act(server, bob, `/api/v1/statuses/${status.id}/favourite`);
    await received("phone", before + 1);
    // The queue's retries: 10 s, 40 s, 160 s and 640 s after each failure.
    for (const [attempt, wait] of [10, 40, 160, 640].entries()) {
      clock.advance(wait * 1000 + 1000);
      await received("phone", before + 2 + attempt);
    }
    clock.advance(3 * 3600_000);
    await server.wren.jobs.runDue();
    assert.equal(pushesTo("phone").length, before + 5);
    assert.deepEqual(await server.wren.ctx.storage.jobs.failed(10), []);
    const kept = await server.request("/api/v1/push/subscription", { token: phoneToken });
    assert.equal(kept.status, 200);
    service.answer("phone", 201);
  });
  it("waits as long as a 429's Retry-After asks, then sends again over the kept-alive connection", async () => {
    service.answer("phone", 429, { "retry-after": "120" });
    const before = pushesTo("phone").length;
    const status = await postStatus(server, alice, "favourite me later");
    await act(server, bob, `/api/v1/statuses/${status.id}/favourite`);
    await received("phone", before + 1);
    const connections = service.connections;
    service.answer("phone", 201);
    // Past the queue's first retry (10 s), short of the two minutes asked.
    clock.advance(60_000);
    await server.wren.jobs.runDue();
    assert.equal(pushesTo("phone").length, before + 1);
    clock.advance(61_000);
    const [failed, sent] = (await received("phone", before + 2)).slice(-2) as ReceivedPush[];
    assert.equal(decrypt(phone, sent as ReceivedPush), decrypt(phone, failed as ReceivedPush));
    // The second message went over the connection the first one opened.
    assert.equal(service.connections, connections);
  });
});
