// Whether the recipient's notification policy accepts, holds back (filter) or drops a new
// notification, as Mastodon's NotifyService decides: only filterable types, never for a sender
// whose request the recipient accepted, and every rule but "not followers" spares senders the
// recipient follows. Dropping wins over filtering when several rules match.

import { type Account, isSilenced } from "../../domain/account.ts";
import {
  FILTERABLE_TYPES,
  FOLLOWER_MIN_AGE_MS,
  NEW_ACCOUNT_AGE_MS,
  type NotificationPolicy,
  type PolicyAction,
} from "../../domain/notification-policy.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import type { NotificationDraft } from "./notify.ts";
import { policyOf } from "./policy.ts";

/** How far up a thread a private mention looks for the recipient's own private mention. */
const THREAD_DEPTH_LIMIT = 100;

/** Whether the status answers, somewhere up its thread, a private mention of the sender by the recipient. */
async function answersRecipient(
  ctx: ServiceContext,
  status: Status,
  recipientId: string,
  senderId: string,
): Promise<boolean> {
  let parentId = status.inReplyToId;
  for (let depth = 0; parentId !== null && depth < THREAD_DEPTH_LIMIT; depth++) {
    const parent = await ctx.storage.statuses.get(parentId);
    if (!parent) return false;
    if (
      parent.accountId === recipientId &&
      parent.visibility === "direct" &&
      parent.mentionIds.includes(senderId)
    ) {
      return true;
    }
    parentId = parent.inReplyToId;
  }
  return false;
}

export async function policyAction(
  ctx: ServiceContext,
  draft: NotificationDraft,
): Promise<PolicyAction> {
  const { recipientId, fromAccountId, type, status } = draft;
  if (!FILTERABLE_TYPES.has(type)) return "accept";
  const [policy, permission, following, followedBy, sender] = await Promise.all([
    policyOf(ctx, recipientId),
    ctx.storage.notificationPermissions.get(recipientId, fromAccountId),
    ctx.storage.follows.get(recipientId, fromAccountId),
    ctx.storage.follows.get(fromAccountId, recipientId),
    ctx.storage.accounts.get(fromAccountId),
  ]);
  if (permission || !sender) return "accept";
  const now = ctx.clock.now().getTime();
  const notFollowing = !following;
  const notFollower = !followedBy || now - Date.parse(followedBy.createdAt) < FOLLOWER_MIN_AGE_MS;
  const privateMention =
    type === "mention" &&
    status !== null &&
    status.visibility === "direct" &&
    !(await answersRecipient(ctx, status, recipientId, fromAccountId));
  return strictest(policy, {
    forNotFollowing: notFollowing,
    forNotFollowers: notFollower,
    forNewAccounts: notFollowing && isNew(sender, now),
    forPrivateMentions: notFollowing && privateMention,
    // Accounts a moderator silenced (limited), unless the recipient follows them.
    forLimitedAccounts: notFollowing && isSilenced(sender),
  });
}

function isNew(account: Account, now: number): boolean {
  return now - Date.parse(account.createdAt) < NEW_ACCOUNT_AGE_MS;
}

/** The strictest action among the rules that match. */
function strictest(
  policy: NotificationPolicy,
  matches: Record<keyof NotificationPolicy, boolean>,
): PolicyAction {
  const actions = (Object.keys(matches) as (keyof NotificationPolicy)[])
    .filter((rule) => matches[rule])
    .map((rule) => policy[rule]);
  if (actions.includes("drop")) return "drop";
  return actions.includes("filter") ? "filter" : "accept";
}
