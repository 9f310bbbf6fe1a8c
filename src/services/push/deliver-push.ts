// The push job: one notification to one subscription. Checked again when it runs (the
// notification still there and not filtered, its status not deleted, the token not revoked,
// the alerts and policy as they are now), then encrypted and sent (push-sender.ts). As Mastodon
// does, a 4xx answer other than 408 and 429 means the subscription is dead (404 and 410 say so;
// the others would fail forever) and it is removed; 408, 429 and 5xx are retried by the queue,
// at the time a 429 or 503 names in its Retry-After (at most PUSH_RETRY_AFTER_MAX_MS away).

import { getLogger } from "@logtape/logtape";
import { retryAfterMs } from "../../domain/retry-after.ts";
import type { ServiceContext } from "../context.ts";
import { RetryAt } from "../job-queue.ts";
import type { PushUrgency } from "./push-sender.ts";
import { pushable } from "./pushable.ts";
import { vapidKeys } from "./vapid-keys.ts";

const logger = getLogger(["wren", "push"]);

/** Mastodon's: a message waits two days for an offline device, at normal urgency. */
export const PUSH_TTL_SECONDS = 48 * 3600;
export const PUSH_URGENCY: PushUrgency = "normal";
/** Mastodon retries a push 5 times. */
export const PUSH_MAX_ATTEMPTS = 5;

/** The longest wait a push service's Retry-After is followed for (the queue's longest backoff). */
export const PUSH_RETRY_AFTER_MAX_MS = 6 * 3600_000;

/** An answer the queue should try again later. */
export class PushRetry extends Error {
  override name = "PushRetry";
}

/** A refusal that will not change by trying again: the subscription is gone or unusable. */
function dead(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 429;
}

/**
 * The job's run: a failure is thrown for the queue to retry, except on the last attempt, when
 * the message is given up and logged instead of leaving a failed job behind: a push service
 * gone for good would otherwise leave one per notification, and a push hours late is of little
 * use. The subscription stays (the service may come back), as Mastodon's does.
 */
export async function runPushJob(
  ctx: ServiceContext,
  notificationId: string,
  tokenId: string,
  lastAttempt: boolean,
): Promise<void> {
  try {
    await deliverPush(ctx, notificationId, tokenId);
  } catch (error) {
    if (!lastAttempt) throw error;
    logger.warn("Push of notification {notificationId} to token {tokenId} given up: {message}", {
      notificationId,
      tokenId,
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

export async function deliverPush(
  ctx: ServiceContext,
  notificationId: string,
  tokenId: string,
): Promise<void> {
  const { storage } = ctx;
  const [notification, subscription, token] = await Promise.all([
    storage.notifications.get(notificationId),
    storage.pushSubscriptions.get(tokenId),
    storage.tokens.get(tokenId),
  ]);
  // Nothing to push: the notification was never written (see hold-pushes.ts), or was filtered.
  if (!notification || notification.filtered || !subscription) return;
  if (subscription.accountId !== notification.accountId) return;
  if (!token || token.revokedAt !== null) {
    // Revoked since it subscribed: the subscription goes with it.
    await storage.pushSubscriptions.delete(tokenId);
    return;
  }
  const [from, status, user] = await Promise.all([
    storage.accounts.get(notification.fromAccountId),
    notification.statusId === null ? null : storage.statuses.get(notification.statusId),
    storage.users.get(notification.accountId),
  ]);
  // What it was about is gone since (Mastodon checks the same).
  if (!from || status === undefined || status?.deleted) return;
  if (!ctx.push || !(await pushable(ctx, subscription, notification))) return;
  const answer = await ctx.push.send({
    subscription,
    notification,
    from,
    status,
    locale: user?.locale || "en",
    vapid: await vapidKeys(ctx),
    ttlSeconds: PUSH_TTL_SECONDS,
    urgency: PUSH_URGENCY,
  });
  if (answer.status >= 200 && answer.status < 300) return;
  if (!dead(answer.status)) {
    const message = `push service answered ${answer.status}`;
    const now = ctx.clock.now();
    const wait =
      answer.status === 429 || answer.status === 503
        ? retryAfterMs(answer.retryAfter, now)
        : undefined;
    if (wait === undefined) throw new PushRetry(message);
    throw new RetryAt(message, new Date(now.getTime() + Math.min(wait, PUSH_RETRY_AFTER_MAX_MS)));
  }
  logger.info("Push service answered {status}: subscription of token {tokenId} removed", {
    status: answer.status,
    tokenId,
  });
  // Only if it is still the subscription the message was for (not one made again since).
  const current = await storage.pushSubscriptions.get(tokenId);
  if (current?.id === subscription.id) await storage.pushSubscriptions.delete(tokenId);
}
