// Creating one notification, with Mastodon's NotifyService rules for when none is made: only
// local users are notified; never about one's own actions (except the end of one's own poll);
// not from accounts the recipient blocks or whose server the recipient blocks, nor from accounts muted with notifications hidden (a
// mute that keeps notifications still lets mentions through, as Mastodon's mention filter
// only counts hiding mutes); new posts via a "notify" follow not from muted accounts; not
// about a thread the recipient muted or a status they cannot see; and never twice for the same
// thing. An edit notification is replaced by the newer one, so it moves to the top. Then the
// recipient's notification policy (policy-decision.ts) may drop it or hold it back as filtered.

import type { Notification, NotificationType } from "../../domain/notification.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { domainBlockedAccounts } from "../graph/blocked-domains.ts";
import { activeMute } from "../graph/mute-expiry.ts";
import { visibleStatuses } from "../statuses/visibility.ts";
import { groupKeyFor } from "./group-key.ts";
import { policyAction } from "./policy-decision.ts";

export interface NotificationDraft {
  recipientId: string;
  type: NotificationType;
  fromAccountId: string;
  /** The status it is about (the original, for boosts), or null for follows. */
  status: Status | null;
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

/** Creates the notification unless a rule says otherwise; returns it when made. */
export async function notify(
  ctx: ServiceContext,
  draft: NotificationDraft,
): Promise<Notification | undefined> {
  if (await suppressed(ctx, draft)) return undefined;
  const action = await policyAction(ctx, draft);
  if (action === "drop") return undefined;
  const { recipientId, type, fromAccountId } = draft;
  const statusId = draft.status?.id ?? null;
  return ctx.storage.coordination.withLock(
    `notification:${recipientId}:${type}:${fromAccountId}:${statusId}`,
    async () => {
      const existing = await ctx.storage.notifications.find(
        recipientId,
        type,
        fromAccountId,
        statusId,
      );
      // An edit replaces the notification of the previous one, so it moves to the top.
      if (existing && type !== "update" && type !== "quoted_update") return undefined;
      if (existing) await ctx.storage.notifications.delete(existing.id);
      const id = ctx.ids.next();
      const createdAt = ctx.clock.now().toISOString();
      const base = { id, accountId: recipientId, type, fromAccountId, statusId, createdAt };
      const notification: Notification = {
        ...base,
        groupKey: await groupKeyFor(ctx, base),
        ...(action === "filter" ? { filtered: true } : {}),
      };
      await ctx.storage.notifications.put(notification);
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
