// Turns domain events into notifications (Mastodon's LocalNotificationWorker and the notify
// calls spread over its services), and removes them when what they announced is undone, as
// Mastodon's notifications go with their favourite, follow, request or boost.

import type { Collection } from "../../domain/collection.ts";
import type { DomainEvent } from "../../domain/events.ts";
import type { Poll } from "../../domain/poll.ts";
import type { Status } from "../../domain/status.ts";
import { staffIds } from "../accounts/staff.ts";
import type { ServiceContext } from "../context.ts";
import { followsToDuring } from "../event-reads.ts";
import type { EventListener } from "../events.ts";
import { walkPages } from "../paging.ts";
import { notify, withdraw } from "./notify.ts";

async function notifyMentioned(
  ctx: ServiceContext,
  status: Status,
  mentionIds: readonly string[],
): Promise<void> {
  for (const recipientId of new Set(mentionIds)) {
    await notify(ctx, { recipientId, type: "mention", fromAccountId: status.accountId, status });
  }
}

/** Followers who asked to hear about the author's posts (Mastodon's FeedInsertWorker#notify?). */
async function notifySubscribers(
  ctx: ServiceContext,
  event: DomainEvent & { type: "status.created" },
): Promise<void> {
  const { status } = event;
  if (status.reblogOfId !== null || status.visibility === "direct") return;
  // A reply to someone else is not announced; a thread of one's own is.
  if (status.inReplyToAccountId !== null && status.inReplyToAccountId !== status.accountId) return;
  // The federation outbox reads the same followers for the same event (event-reads.ts).
  for (const follow of await followsToDuring(ctx, event, status.accountId)) {
    if (!follow.notify) continue;
    // The follow's language filter keeps the post out of home, so it announces nothing either.
    if (follow.languages && status.language && !follow.languages.includes(status.language)) {
      continue;
    }
    await notify(ctx, {
      recipientId: follow.accountId,
      type: "status",
      fromAccountId: status.accountId,
      status,
    });
  }
}

/** Those who boosted or favourited an edited status hear about the edit. */
async function notifyInteracted(ctx: ServiceContext, status: Status): Promise<void> {
  const recipients = new Set<string>();
  for await (const reblog of walkPages((page) =>
    ctx.storage.statuses.listReblogs(status.id, page),
  )) {
    if (!reblog.deleted) recipients.add(reblog.accountId);
  }
  for await (const favourite of walkPages((page) =>
    ctx.storage.favourites.listTo(status.id, page),
  )) {
    recipients.add(favourite.accountId);
  }
  for (const recipientId of recipients) {
    await notify(ctx, { recipientId, type: "update", fromAccountId: status.accountId, status });
  }
}

/** The author and every voter learn that the poll has ended. */
async function notifyPollEnded(ctx: ServiceContext, poll: Poll): Promise<void> {
  const status = await ctx.storage.statuses.get(poll.statusId);
  if (!status || status.deleted) return;
  const recipients = new Set<string>([poll.accountId]);
  for await (const vote of walkPages((page) => ctx.storage.pollVotes.listTo(poll.id, page))) {
    recipients.add(vote.accountId);
  }
  for (const recipientId of recipients) {
    await notify(ctx, { recipientId, type: "poll", fromAccountId: poll.accountId, status });
  }
}

/** The accounts featured in a collection hear of a new name or description (Mastodon's). */
async function notifyCollectionUpdated(ctx: ServiceContext, collection: Collection) {
  for (const item of collection.items) {
    if (item.state !== "accepted") continue;
    await notify(ctx, {
      recipientId: item.accountId,
      type: "collection_update",
      fromAccountId: collection.accountId,
      status: null,
      collection: { id: collection.id, since: collection.updatedAt },
    });
  }
}

async function onStatusDeleted(ctx: ServiceContext, status: Status): Promise<void> {
  if (status.reblogOfId === null) {
    await ctx.storage.notifications.deleteByStatus(status.id);
    return;
  }
  // An undone boost takes its notification with it.
  const original = await ctx.storage.statuses.get(status.reblogOfId);
  if (original) await withdraw(ctx, original.accountId, "reblog", status.accountId, original.id);
}

async function onStatusUnfavourited(ctx: ServiceContext, statusId: string, fromId: string) {
  const status = await ctx.storage.statuses.get(statusId);
  if (status) await withdraw(ctx, status.accountId, "favourite", fromId, status.id);
}

/** Mastodon's `admin.sign_up`: every admin and moderator hears of each new account. */
async function notifyStaffOfSignUp(ctx: ServiceContext, accountId: string): Promise<void> {
  for (const recipientId of await staffIds(ctx)) {
    await notify(ctx, {
      recipientId,
      type: "admin.sign_up",
      fromAccountId: accountId,
      status: null,
    });
  }
}

async function handle(ctx: ServiceContext, event: DomainEvent): Promise<void> {
  switch (event.type) {
    case "status.created":
      await notifyMentioned(ctx, event.status, event.status.mentionIds);
      await notifySubscribers(ctx, event);
      return;
    case "status.updated":
      // Accounts newly mentioned by the edit are notified; the others already were.
      await notifyMentioned(ctx, event.status, event.status.mentionIds);
      await notifyInteracted(ctx, event.status);
      return;
    case "status.deleted":
      return onStatusDeleted(ctx, event.status);
    case "status.reblogged":
      await notify(ctx, {
        recipientId: event.original.accountId,
        type: "reblog",
        fromAccountId: event.reblog.accountId,
        status: event.original,
      });
      return;
    case "status.favourited":
      await notify(ctx, {
        recipientId: event.status.accountId,
        type: "favourite",
        fromAccountId: event.favourite.accountId,
        status: event.status,
      });
      return;
    case "status.unfavourited":
      return onStatusUnfavourited(ctx, event.favourite.targetId, event.favourite.accountId);
    case "account.followed":
      // An accepted request was announced as a follow_request already; Mastodon adds no follow.
      if (event.fromRequest) return;
      await notify(ctx, {
        recipientId: event.follow.targetId,
        type: "follow",
        fromAccountId: event.follow.accountId,
        status: null,
      });
      return;
    case "account.unfollowed":
      return withdraw(ctx, event.follow.targetId, "follow", event.follow.accountId, null);
    case "account.follow_requested":
      await notify(ctx, {
        recipientId: event.request.targetId,
        type: "follow_request",
        fromAccountId: event.request.accountId,
        status: null,
      });
      return;
    case "follow_request.closed":
      return withdraw(ctx, event.request.targetId, "follow_request", event.request.accountId, null);
    case "poll.expired":
      return notifyPollEnded(ctx, event.poll);
    case "collection.item_added":
      await notify(ctx, {
        recipientId: event.item.accountId,
        type: "added_to_collection",
        fromAccountId: event.collection.accountId,
        status: null,
        collection: { id: event.collection.id, since: event.item.createdAt },
      });
      return;
    case "collection.updated":
      return notifyCollectionUpdated(ctx, event.collection);
    case "account.signed_up":
      return notifyStaffOfSignUp(ctx, event.account.id);
    default:
      return;
  }
}

export function notificationListener(ctx: ServiceContext): EventListener {
  return (event) => handle(ctx, event);
}
