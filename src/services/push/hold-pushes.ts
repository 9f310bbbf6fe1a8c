// Where a notification is made (notifications/notify.ts), its pushes are put on the durable queue
// before the notification is written, held back, and released once it is: a crash between the
// two then loses no push (the held jobs run when their hold ends and find the notification), and
// a listener run again after a crash, which finds the notification already there and makes none,
// needs to enqueue nothing. A push job whose notification was never written finds none and ends.
// One job per subscription that wants the type, so a push service that fails is retried alone.

import type { Notification } from "../../domain/notification.ts";
import type { ServiceContext } from "../context.ts";
import { wantsType } from "./pushable.ts";

export const PUSH_JOB = "push.send";

/** How long held pushes wait when their release never comes (a crash mid-write). */
export const PUSH_HOLD_MS = 60_000;

const none = async () => {};

/**
 * Enqueues, held, the pushes `notification` calls for; returns what releases them, to call once
 * the notification is stored. Filtered notifications (held by the policy) are not pushed.
 */
export async function holdPushes(
  ctx: ServiceContext,
  notification: Notification,
): Promise<() => Promise<void>> {
  if (notification.filtered) return none;
  const subscriptions = await ctx.storage.pushSubscriptions.listByAccount(notification.accountId);
  const wanted = subscriptions.filter((s) => wantsType(s, notification));
  if (wanted.length === 0) return none;
  const group = `push:${notification.id}`;
  const runAt = new Date(ctx.clock.now().getTime() + PUSH_HOLD_MS);
  await Promise.all(
    wanted.map((s) =>
      ctx.jobs.enqueue(
        PUSH_JOB,
        { notificationId: notification.id, tokenId: s.tokenId },
        { runAt, group },
      ),
    ),
  );
  return async () => {
    await ctx.jobs.release(group);
  };
}
