// Who sees a signalled status on which stream, asked per connected viewer with the very rules
// of the timelines they would reload (home.ts, list.ts), so a stream never shows what the REST
// timeline would not: visibility, blocks, mutes, domain blocks and `hide` filters included. The
// public streams' rule (public-filter.ts) is applied to all viewers at once by fan-out-facts.ts.

import type { Conversation } from "../../domain/conversation.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { followedTagsSource } from "../timelines/followed-tags.ts";
import { keepHome } from "../timelines/home.ts";
import { keepListed } from "../timelines/list.ts";
import { type ResolvedEntry, resolveEntries } from "../timelines/resolve-entries.ts";

/** The status of a signal with its boosted original; undefined when gone meanwhile. */
export async function resolveSignalled(
  ctx: ServiceContext,
  statusId: string,
): Promise<ResolvedEntry | undefined> {
  const status = await ctx.storage.statuses.get(statusId);
  if (!status || status.deleted) return undefined;
  const [item] = await resolveEntries(ctx, [
    { account_id: status.accountId, status_id: status.id },
  ]);
  return item;
}

async function follows(ctx: ServiceContext, viewerId: string, accountId: string) {
  return (await ctx.storage.follows.findFrom(viewerId, [accountId])).has(accountId);
}

/** Whether the viewer's home timeline shows the status. */
export async function homeShows(
  ctx: ServiceContext,
  viewerId: string,
  item: ResolvedEntry,
): Promise<boolean> {
  const author = item.entry.account_id;
  const authors = new Set([viewerId]);
  if (author !== viewerId && (await follows(ctx, viewerId, author))) authors.add(author);
  const source = await followedTagsSource(ctx, viewerId, [...authors]);
  return (await keepHome(ctx, viewerId, [item], authors, source)).length > 0;
}

/** Whether the owner's list shows the status; a list that is not theirs shows nothing. */
export async function listShows(
  ctx: ServiceContext,
  ownerId: string,
  listId: string,
  item: ResolvedEntry,
): Promise<boolean> {
  const list = await ctx.storage.lists.get(listId);
  if (!list || list.accountId !== ownerId) return false;
  const { status } = item;
  const asked = [item.entry.account_id];
  if (status.inReplyToAccountId !== null) asked.push(status.inReplyToAccountId);
  const members = new Set((await ctx.storage.listMembers.findFrom(list.id, asked)).keys());
  return (await keepListed(ctx, list, members, [item])).length > 0;
}

/** The viewer's conversation that a new direct status has just become the last of. */
export async function conversationOf(
  ctx: ServiceContext,
  viewerId: string,
  status: Status,
): Promise<Conversation | undefined> {
  if (status.visibility !== "direct") return undefined;
  if (status.accountId !== viewerId && !status.mentionIds.includes(viewerId)) return undefined;
  const conversation = await ctx.storage.conversations.find(viewerId, status.conversationId);
  return conversation?.lastStatusId === status.id ? conversation : undefined;
}

/**
 * Whether a deleted status may have been on the viewer's home timeline or list: theirs, one
 * mentioning them, or by an account they follow or listed. Only its id is told, so telling one
 * who never saw it costs nothing.
 */
export async function mayHaveShown(
  ctx: ServiceContext,
  viewerId: string,
  status: Status,
  listId?: string,
): Promise<boolean> {
  if (listId !== undefined) {
    const list = await ctx.storage.lists.get(listId);
    if (!list || list.accountId !== viewerId) return false;
    return (await ctx.storage.listMembers.findFrom(list.id, [status.accountId])).size > 0;
  }
  if (status.accountId === viewerId || status.mentionIds.includes(viewerId)) return true;
  return follows(ctx, viewerId, status.accountId);
}
