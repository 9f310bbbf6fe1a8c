// Which mentioned accounts get a direct message into their conversations. Mastodon adds the
// status to a recipient's conversations only when the mention notification gets through, so the
// same rules apply: local recipients only, and nothing for someone who blocks the author or mutes
// their notifications, muted the thread, or blocks (or mutes the notifications of) another
// account the status mentions or replies to.

import { isLocal } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { isMuteActive } from "../graph/mute-expiry.ts";

async function silences(
  ctx: ServiceContext,
  recipientId: string,
  accountIds: readonly string[],
): Promise<boolean> {
  if (accountIds.length === 0) return false;
  const [blocks, mutes] = await Promise.all([
    ctx.storage.blocks.findFrom(recipientId, accountIds),
    ctx.storage.mutes.findFrom(recipientId, accountIds),
  ]);
  if (blocks.size > 0) return true;
  const now = ctx.clock.now();
  for (const mute of mutes.values()) {
    if (mute.hideNotifications && isMuteActive(mute, now)) return true;
  }
  return false;
}

async function admits(ctx: ServiceContext, recipientId: string, status: Status): Promise<boolean> {
  if (await ctx.storage.conversationMutes.get(recipientId, status.conversationId)) return false;
  const others = new Set([status.accountId, ...status.mentionIds]);
  if (status.inReplyToAccountId !== null) others.add(status.inReplyToAccountId);
  others.delete(recipientId);
  return !(await silences(ctx, recipientId, [...others]));
}

/** The local accounts, other than the author, whose conversations receive the status. */
export async function conversationRecipients(
  ctx: ServiceContext,
  status: Status,
): Promise<string[]> {
  const mentioned = status.mentionIds.filter((id) => id !== status.accountId);
  const accounts = await ctx.storage.accounts.getMany(mentioned);
  const out: string[] = [];
  for (const id of mentioned) {
    const account = accounts.get(id);
    if (account && isLocal(account) && (await admits(ctx, id, status))) out.push(id);
  }
  return out;
}
