// Creating one notification, with Mastodon's NotifyService rules for when none is made: only
// local users are notified; never about one's own actions (except the end of one's own poll);
// not from accounts the recipient blocks or whose server the recipient blocks, nor from accounts muted with notifications hidden (a
// mute that keeps notifications still lets mentions through, as Mastodon's mention filter
// only counts hiding mutes); new posts via a "notify" follow not from muted accounts; not
// about a thread the recipient muted or a status they cannot see; and never twice for the same
// thing. An edit notification is replaced by the newer one, so it moves to the top. Then the
// recipient's notification policy (policy-decision.ts) may drop it or hold it back as filtered.
// Those not held back are pushed to the recipient's Web Push subscriptions (push/hold-pushes.ts).

import type { Notification, NotificationType } from "../../domain/notification.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { domainBlockedAccounts } from "../graph/blocked-domains.ts";
import { activeMute } from "../graph/mute-expiry.ts";
import { holdPushes } from "../push/hold-pushes.ts";
import { visibleStatuses } from "../statuses/visibility.ts";
import { signalStreams } from "../streaming/signal.ts";
import { groupKeyFor } from "./group-key.ts";
import { policyAction } from "./policy-decision.ts";

export interface NotificationDraft {
  recipientId: string;
  type: NotificationType;
  fromAccountId: string;
  /** The status it is about (the original, for boosts), or null for follows. */
  status: Status | null;
  /**
   * The collection it is about, and the time of the change announced (the item's creation, the
   * collection's update): a notification about the same collection made since then is this one,
   * from an earlier run of the same event.
   */
  collection?: { id: string; since: string };
}

/** Types that a plain mute (notifications not hidden) still silences: the muted person's posts. */
const SILENCED_BY_ANY_MUTE: ReadonlySet<NotificationType> = new Set(["status"]);

async function suppressed(ctx: ServiceContext, draft: NotificationDraft): Promise<boolean> {
  const { recipientId, fromAccountId, type, status } = draft;
  if (recipientId === fromAccountId && type !== "poll") return true;
  const [user, block, mute, threadMute, domainBlocked] = await Promise.all([
    ctx.storage.users.get(recipientId),
    ctx.storage.blocks.get(recipientId, fromAccountId),
    ctx.storage.mutes.get(recipientId, fromAccountId),
    status ? ctx.storage.conversationMutes.get(recipientId, status.conversationId) : undefined,
    domainBlockedAccounts(ctx, recipientId, [fromAccountId]),
  ]);
  // Remote accounts are notified by their own servers.
  if (!user || block || threadMute || domainBlocked.size > 0) return true;
  const muted = activeMute(mute, ctx.clock.now());
  if (muted && (muted.hideNotifications || SILENCED_BY_ANY_MUTE.has(type))) return true;
  if (status) {
    const [visible] = await visibleStatuses(ctx, recipientId, [status]);
    if (!visible) return true;
  }
  return false;
}

/** How far back a collection notification is looked for among the recipient's of its kind. */
const COLLECTION_LOOKBACK = 40;

/** Whether the notification a collection draft announces was made already. */
async function collectionNotified(
  ctx: ServiceContext,
  draft: NotificationDraft & { collection: { id: string; since: string } },
): Promise<boolean> {
  const recent = await ctx.storage.notifications.listFor(
    draft.recipientId,
    { limit: COLLECTION_LOOKBACK },
    { types: [draft.type], fromAccountId: draft.fromAccountId },
  );
  const { id, since } = draft.collection;
  return recent.some((n) => n.collectionId === id && n.createdAt >= since);
}

/** Creates the notification unless a rule says otherwise; returns it when made. */
export async function notify(
  ctx: ServiceContext,
  draft: NotificationDraft,
): Promise<Notification | undefined> {
  if (await suppressed(ctx, draft)) return undefined;
  const action = await policyAction(ctx, draft);
  if (action === "drop") return undefined;
  const { recipientId, type, fromAccountId, collection } = draft;
  const statusId = draft.status?.id ?? null;
  return ctx.storage.coordination.withLock(
    `notification:${recipientId}:${type}:${fromAccountId}:${collection?.id ?? statusId}`,
    async () => {
      if (collection) {
        if (await collectionNotified(ctx, { ...draft, collection })) return undefined;
      } else {
        const existing = await ctx.storage.notifications.find(
          recipientId,
          type,
          fromAccountId,
          statusId,
        );
        // An edit replaces the notification of the previous one, so it moves to the top.
        if (existing && type !== "update" && type !== "quoted_update") return undefined;
        if (existing) await ctx.storage.notifications.delete(existing.id);
      }
      const id = ctx.ids.next();
      const createdAt = ctx.clock.now().toISOString();
      const base = { id, accountId: recipientId, type, fromAccountId, statusId, createdAt };
      const notification: Notification = {
        ...base,
        ...(collection ? { collectionId: collection.id } : {}),
        groupKey: await groupKeyFor(ctx, base),
        ...(action === "filter" ? { filtered: true } : {}),
      };
      const releasePushes = await holdPushes(ctx, notification);
      await ctx.storage.notifications.put(notification);
      await releasePushes();
      // Held (filtered) notifications stay off the streams, as they stay out of the list.
      if (!notification.filtered) {
        await signalStreams(ctx, {
          kind: "notification",
          accountId: recipientId,
          notificationId: id,
        });
      }
      return notification;
    },
  );
}

/** Removes the recipient's notification of this exact kind, when an action is undone. */
export async function withdraw(
  ctx: ServiceContext,
  recipientId: string,
  type: NotificationType,
  fromAccountId: string,
  statusId: string | null,
): Promise<void> {
  const existing = await ctx.storage.notifications.find(recipientId, type, fromAccountId, statusId);
  if (existing) await ctx.storage.notifications.delete(existing.id);
}
