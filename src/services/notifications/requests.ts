// Notification requests (Mastodon 4.3): the notifications a recipient's policy held back, one
// request per sender. A request is not stored on its own: it is read off the held notifications
// (Notification.filtered), and its id is that of the sender's oldest held one, which stays the
// same while more arrive. Accepting lets the sender through for good (a NotificationPermission)
// and puts the held notifications back in the lists; dismissing deletes them. Both go through a
// durable event (request-listener.ts), so a crash half way is finished by the job runner.

import { notFound } from "../../domain/errors.ts";
import { compareIds } from "../../domain/ids.ts";
import type { Notification } from "../../domain/notification.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";

export interface NotificationRequest {
  id: string;
  recipientId: string;
  fromAccountId: string;
  /** When the oldest held notification was made. */
  createdAt: string;
  /** When the newest one was. */
  updatedAt: string;
  notificationsCount: number;
  /** The status of the newest held notification about one, if any. */
  lastStatusId: string | null;
}

const BATCH = 200;
/** Held notifications read at most per recipient: a policy holds back strangers, not floods. */
const HELD_CAP = 5000;

/** The recipient's held notifications (of one sender, when given), newest first. */
async function heldNotifications(
  ctx: ServiceContext,
  recipientId: string,
  fromAccountId?: string,
): Promise<Notification[]> {
  const filter = { filtered: true, ...(fromAccountId !== undefined ? { fromAccountId } : {}) };
  const held: Notification[] = [];
  let maxId: string | undefined;
  while (held.length < HELD_CAP) {
    const batch = await ctx.storage.notifications.listFor(
      recipientId,
      { limit: BATCH, maxId },
      filter,
    );
    held.push(...batch);
    if (batch.length < BATCH) break;
    maxId = batch.at(-1)?.id;
  }
  return held;
}

function requestsOf(recipientId: string, held: readonly Notification[]): NotificationRequest[] {
  const bySender = new Map<string, NotificationRequest>();
  // Newest first: the first one seen of a sender is their newest, the last their oldest.
  for (const n of held) {
    const request = bySender.get(n.fromAccountId);
    if (!request) {
      bySender.set(n.fromAccountId, {
        id: n.id,
        recipientId,
        fromAccountId: n.fromAccountId,
        createdAt: n.createdAt,
        updatedAt: n.createdAt,
        notificationsCount: 1,
        lastStatusId: n.statusId,
      });
      continue;
    }
    request.id = n.id;
    request.createdAt = n.createdAt;
    request.notificationsCount += 1;
    request.lastStatusId ??= n.statusId;
  }
  return [...bySender.values()].sort((a, b) => compareIds(b.id, a.id));
}

/** Every pending request of the recipient, newest first. */
export async function pendingRequests(
  ctx: ServiceContext,
  recipientId: string,
): Promise<NotificationRequest[]> {
  return requestsOf(recipientId, await heldNotifications(ctx, recipientId));
}

export interface RequestPage {
  requests: NotificationRequest[];
  newestId: string | undefined;
  oldestId: string | undefined;
}

/** One page of the pending requests by request id, as Mastodon pages them. */
export async function listRequests(
  ctx: ServiceContext,
  recipientId: string,
  page: IdPage,
): Promise<RequestPage> {
  const all = await pendingRequests(ctx, recipientId);
  const inWindow = all.filter(
    (r) =>
      (page.maxId === undefined || compareIds(r.id, page.maxId) < 0) &&
      (page.sinceId === undefined || compareIds(r.id, page.sinceId) > 0) &&
      (page.minId === undefined || compareIds(r.id, page.minId) > 0),
  );
  // With min_id, the ones just above it: the oldest of the window.
  const requests =
    page.minId !== undefined ? inWindow.slice(-page.limit) : inWindow.slice(0, page.limit);
  return { requests, newestId: requests[0]?.id, oldestId: requests.at(-1)?.id };
}

/** The recipient's request with this id; 404 for another's or one no longer pending. */
export async function getRequest(
  ctx: ServiceContext,
  recipientId: string,
  id: string,
): Promise<NotificationRequest> {
  const notification = await ctx.storage.notifications.get(id);
  if (notification?.accountId !== recipientId || notification.filtered !== true) throw notFound();
  const held = await heldNotifications(ctx, recipientId, notification.fromAccountId);
  const [request] = requestsOf(recipientId, held);
  if (request?.id !== id) throw notFound();
  return request;
}

/** Moves the sender's held notifications back into the lists, batch by batch. */
export async function releaseHeld(
  ctx: ServiceContext,
  recipientId: string,
  fromAccountId: string,
): Promise<void> {
  for (;;) {
    const batch = await heldNotifications(ctx, recipientId, fromAccountId);
    if (batch.length === 0) return;
    for (const { filtered: _held, ...notification } of batch) {
      await ctx.storage.notifications.put(notification);
    }
  }
}

export async function discardHeld(
  ctx: ServiceContext,
  recipientId: string,
  fromAccountId: string,
): Promise<void> {
  for (;;) {
    const batch = await heldNotifications(ctx, recipientId, fromAccountId);
    if (batch.length === 0) return;
    await Promise.all(batch.map((n) => ctx.storage.notifications.delete(n.id)));
  }
}

/**
 * Accepts the request: the sender's notifications always pass from now on, and the held ones
 * are shown (by the event's listener, request-listener.ts, retried until done).
 */
export async function acceptRequest(
  ctx: ServiceContext,
  request: NotificationRequest,
): Promise<void> {
  const { recipientId, fromAccountId } = request;
  // The permission first, so that nothing new is held back while the old ones are released.
  if (!(await ctx.storage.notificationPermissions.get(recipientId, fromAccountId))) {
    await ctx.storage.notificationPermissions.put({
      id: ctx.ids.next(),
      accountId: recipientId,
      targetId: fromAccountId,
      createdAt: ctx.clock.now().toISOString(),
    });
  }
  await ctx.events.publish({
    type: "notification_request.settled",
    recipientId,
    fromAccountId,
    outcome: "accepted",
  });
}

/** Dismisses the request: its notifications are deleted; the sender stays filtered. */
export async function dismissRequest(
  ctx: ServiceContext,
  request: NotificationRequest,
): Promise<void> {
  const { recipientId, fromAccountId } = request;
  await ctx.events.publish({
    type: "notification_request.settled",
    recipientId,
    fromAccountId,
    outcome: "dismissed",
  });
}

/**
 * Whether every accepted request is merged: no notification is still held from a sender the
 * recipient accepted (the listener has not finished, or is waiting for a retry).
 */
export async function requestsMerged(ctx: ServiceContext, recipientId: string): Promise<boolean> {
  const senders = [
    ...new Set((await heldNotifications(ctx, recipientId)).map((n) => n.fromAccountId)),
  ];
  if (senders.length === 0) return true;
  const accepted = await ctx.storage.notificationPermissions.findFrom(recipientId, senders);
  return accepted.size === 0;
}

/** The bulk forms: ids that are not the recipient's pending requests are skipped. */
export async function settleRequests(
  ctx: ServiceContext,
  recipientId: string,
  ids: readonly string[],
  settle: (ctx: ServiceContext, request: NotificationRequest) => Promise<void>,
): Promise<void> {
  for (const id of new Set(ids)) {
    const request = await getRequest(ctx, recipientId, id).catch(() => undefined);
    if (request) await settle(ctx, request);
  }
}
