// One notification of the recipient (GET /api/v1/notifications/:id) and dismissing it. Another
// user's notification answers 404, exactly like a missing one.

import { notFound } from "../../domain/errors.ts";
import type { Notification } from "../../domain/notification.ts";
import type { ServiceContext } from "../context.ts";
import { type ShownNotification, shownNotifications } from "./shown.ts";

async function ownNotification(
  ctx: ServiceContext,
  recipientId: string,
  id: string,
): Promise<Notification> {
  const notification = await ctx.storage.notifications.get(id);
  if (!notification || notification.accountId !== recipientId) throw notFound();
  return notification;
}

export async function getNotification(
  ctx: ServiceContext,
  recipientId: string,
  id: string,
): Promise<ShownNotification> {
  const notification = await ownNotification(ctx, recipientId, id);
  const [shown] = await shownNotifications(ctx, recipientId, [notification]);
  if (!shown) throw notFound();
  return shown;
}

export async function dismissNotification(
  ctx: ServiceContext,
  recipientId: string,
  id: string,
): Promise<void> {
  const notification = await ownNotification(ctx, recipientId, id);
  await ctx.storage.notifications.delete(notification.id);
}

export async function clearNotifications(ctx: ServiceContext, recipientId: string): Promise<void> {
  await ctx.storage.notifications.clear(recipientId);
}
