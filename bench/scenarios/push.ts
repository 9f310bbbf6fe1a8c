// Web Push throughput (issue 18), in encrypted messages per second, against a push service on
// loopback (the test one, answering 201 at once):
//  - the reference: encryption alone (web-push's generateRequestDetails, aes128gcm and aesgcm
//    alternately), the CPU cost of a message with no I/O;
//  - end to end in one Wren process: notifications whose pushes are held and released as
//    notify.ts does, run by the job queue (one job per subscription: the checks, the payload,
//    encryption, the reused VAPID signature, the guarded POST over kept-alive connections), until
//    the push service has received them all.
// WREN_TEST_STORAGE=postgres runs the second on a throw-away PostgreSQL database.

import webpush from "web-push";
import type { Notification } from "../../src/domain/notification.ts";
import { issueAccessToken } from "../../src/services/oauth/issue-access-token.ts";
import { holdPushes } from "../../src/services/push/hold-pushes.ts";
import { subscribeToPush } from "../../src/services/push/subscriptions.ts";
import { createTestApp, createUsers } from "../../test/helpers/accounts.ts";
import { startTestServer } from "../../test/helpers/server.ts";
import { newSubscriber, startPushService } from "../../test/push/push-service.ts";

export interface PushProfile {
  notifications: number;
  subscriptions: number;
  /** Messages encrypted for the reference. */
  encryptions: number;
}

export interface PushResult {
  messages: number;
  subscriptions: number;
  storage: string;
  /** Encrypted messages per second, end to end. */
  perSecond: number;
  /** Encryptions per second alone (both codings alternately). */
  encryptPerSecond: number;
  /** Connections the push service saw. */
  connections: number;
}

/** A payload of a typical size: Mastodon's push JSON for a mention. */
const PAYLOAD = JSON.stringify({
  access_token: "x".repeat(43),
  notification_id: "113234567890123456",
  notification_type: "mention",
  icon: "https://social.example/avatars/original/missing.png",
  title: "You were mentioned by someone",
  body: "a".repeat(140),
});

/** Encryptions per second of `rounds` messages, the two codings in turn. */
export function encryptionRate(rounds: number, coding?: "aes128gcm" | "aesgcm"): number {
  const subscriber = newSubscriber();
  const keys = { p256dh: subscriber.p256dh, auth: subscriber.auth };
  const started = performance.now();
  for (let i = 0; i < rounds; i++) {
    webpush.generateRequestDetails({ endpoint: "https://push.example/x", keys }, PAYLOAD, {
      TTL: 172_800,
      urgency: "normal",
      contentEncoding: coding ?? (i % 2 === 0 ? "aes128gcm" : "aesgcm"),
    });
  }
  return rounds / ((performance.now() - started) / 1000);
}

export async function measurePush(profile: PushProfile): Promise<PushResult> {
  const encryptPerSecond = encryptionRate(profile.encryptions);
  const service = await startPushService();
  const server = await startTestServer({ WREN_ALLOW_PRIVATE_ADDRESSES: "true" });
  const { ctx } = server.wren;
  try {
    const [alice, bob] = await createUsers(server, "alice", "bob");
    for (let i = 0; i < profile.subscriptions; i++) {
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
    const expected = profile.notifications * profile.subscriptions;
    const started = performance.now();
    for (let i = 0; i < profile.notifications; i++) {
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
    return {
      messages: expected,
      subscriptions: profile.subscriptions,
      storage: server.config.storage,
      perSecond: expected / seconds,
      encryptPerSecond,
      connections: service.connections,
    };
  } finally {
    await server.close();
    await service.close();
  }
}
