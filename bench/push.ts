// `node bench/push.ts [--notifications N] [--subscriptions S]`: Web Push throughput, in
// encrypted messages per second, against a push service on loopback (the test one, answering
// 201 at once). Two figures:
//  - encryption alone (web-push's generateRequestDetails, both codings), the CPU cost of one
//    message with no I/O, and of signing a VAPID JWT (which the sender reuses for an hour);
//  - end to end in one Wren process: notifications whose pushes are held and released as
//    notify.ts does, run by the job queue (one job per subscription: the checks, the payload,
//    encryption, signing, the guarded POST), until the push service has received them all.
// WREN_TEST_STORAGE=postgres runs the second on a throw-away PostgreSQL database.

import { parseArgs } from "node:util";
import webpush from "web-push";
import type { Notification } from "../src/domain/notification.ts";
import { issueAccessToken } from "../src/services/oauth/issue-access-token.ts";
import { holdPushes } from "../src/services/push/hold-pushes.ts";
import { subscribeToPush } from "../src/services/push/subscriptions.ts";
import { vapidKeys } from "../src/services/push/vapid-keys.ts";
import { createTestApp, createUsers } from "../test/helpers/accounts.ts";
import { startTestServer } from "../test/helpers/server.ts";
import { newSubscriber, startPushService } from "../test/push/push-service.ts";

const { values } = parseArgs({
  options: {
    notifications: { type: "string", default: "500" },
    subscriptions: { type: "string", default: "4" },
  },
});
const notificationCount = Number(values.notifications);
const subscriptionCount = Number(values.subscriptions);

const service = await startPushService();
const server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" });
const { ctx } = server.wren;

try {
  // ---- Encryption and signing alone.
  const vapid = await vapidKeys(ctx);
  const subscriber = newSubscriber();
  const payload = JSON.stringify({
    access_token: "x".repeat(43),
    notification_id: 113234567890123456n.toString(),
    notification_type: "mention",
    icon: "https://social.example/avatars/original/missing.png",
    title: "You were mentioned by someone",
    body: "a".repeat(140),
  });
  const rate = (name: string, rounds: number, work: () => void) => {
    const started = performance.now();
    for (let i = 0; i < rounds; i++) work();
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `${name}: ${(rounds / seconds).toFixed(0)}/s (${((seconds / rounds) * 1000).toFixed(2)} ms each)\n`,
    );
  };
  const keys = { p256dh: subscriber.p256dh, auth: subscriber.auth };
  for (const coding of ["aes128gcm", "aesgcm"] as const) {
    // Per message, what the sender does: encryption (its VAPID JWT is reused, see below).
    rate(`encrypt (${coding})`, 2_000, () =>
      webpush.generateRequestDetails({ endpoint: "https://push.example/x", keys }, payload, {
        TTL: 172_800,
        urgency: "normal",
        contentEncoding: coding,
      }),
    );
  }
  // Once an hour per push service (federation/push-sender.ts): signing a VAPID JWT.
  rate("sign a VAPID JWT", 2_000, () =>
    webpush.getVapidHeaders(
      "https://push.example",
      "mailto:admin@social.example",
      vapid.publicKey,
      vapid.privateKey,
      "aes128gcm",
    ),
  );

  // ---- End to end through the job queue.
  const [alice, bob] = await createUsers(server, "alice", "bob");
  for (let i = 0; i < subscriptionCount; i++) {
    const { token, secret } = await issueAccessToken(ctx, {
      app: await createTestApp(server, `Phone ${i}`),
      accountId: alice.account.id,
      scopes: ["push"],
      withRefreshToken: false,
    });
    const keys = newSubscriber();
    await subscribeToPush(
      ctx,
      { token: { ...token, accountId: alice.account.id }, secret },
      {
        endpoint: service.endpoint(`phone-${i}`),
        p256dh: keys.p256dh,
        auth: keys.auth,
        standard: i % 2 === 0,
        alerts: { follow: true },
        policy: "all",
      },
    );
  }
  const expected = notificationCount * subscriptionCount;
  const started = performance.now();
  for (let i = 0; i < notificationCount; i++) {
    const notification: Notification = {
      id: ctx.ids.next(),
      accountId: alice.account.id,
      type: "follow",
      fromAccountId: bob.account.id,
      statusId: null,
      groupKey: `bench-${i}`,
      createdAt: ctx.clock.now().toISOString(),
    };
    const release = await holdPushes(ctx, notification);
    await ctx.storage.notifications.put(notification);
    await release();
  }
  while (service.received.length < expected) {
    await server.wren.jobs.runDue();
    if (service.received.length < expected) await new Promise((r) => setTimeout(r, 5));
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `end to end (${server.config.storage}, ${notificationCount} notifications × ${subscriptionCount} subscriptions, half aes128gcm): ${(expected / seconds).toFixed(0)} messages/s (${seconds.toFixed(1)} s)\n`,
  );
} finally {
  await server.close();
  await service.close();
}
