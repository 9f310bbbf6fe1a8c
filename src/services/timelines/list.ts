// A list's timeline, generated on read like home (home.ts): the statuses and boosts of the
// list's members, newest first, under the home rules for the list's owner (mutes, blocks, boosts
// turned off, replies to strangers) and the owner's visibility, then the list's reply policy
// (Mastodon's filter_from_list?). A reply to someone else than its author stays when it answers
// the owner, or when the policy is `followed` (home's rule already keeps only replies to
// accounts the owner follows), or when the policy is `list` and it answers a member; `none`
// keeps no other reply. Direct messages stay out (Mastodon delivers them to home only).

import type { List } from "../../domain/list.ts";
import type { Status } from "../../domain/status.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { fillPage } from "../fill-page.ts";
import { withoutHidden } from "../filters/hidden.ts";
import { ownList } from "../lists/own-list.ts";
import { filterHome } from "./home-filter.ts";
import { keepVisible, lineUp, type ResolvedEntry, resolveEntries } from "./resolve-entries.ts";

export function keepsListReply(
  list: List,
  members: ReadonlySet<string>,
  status: Pick<Status, "accountId" | "inReplyToAccountId">,
): boolean {
  const parent = status.inReplyToAccountId;
  if (parent === null || parent === status.accountId || parent === list.accountId) return true;
  if (list.repliesPolicy === "followed") return true;
  return list.repliesPolicy === "list" && members.has(parent);
}

export async function listTimeline(
  ctx: ServiceContext,
  ownerId: string,
  listId: string,
  page: IdPage,
): Promise<ResolvedEntry[]> {
  const list = await ownList(ctx, ownerId, listId);
  const members = await ctx.storage.listMembers.allTargetsFrom(list.id);
  if (members.length === 0) return [];
  const memberSet = new Set(members);
  const filled = await fillPage(page, {
    read: (window) => ctx.storage.statuses.listEntriesByAccounts(members, window),
    idOf: (entry) => entry.status_id,
    async keep(batch) {
      const resolved = await resolveEntries(ctx, batch);
      return lineUp(
        batch.map((e) => e.status_id),
        await keepListed(ctx, list, memberSet, resolved),
      );
    },
  });
  return filled.items;
}

/**
 * Of a resolved batch of the members' entries, what the list shows its owner (the streaming API
 * asks the same of each new status). `members` must hold at least the batch's authors that are
 * members and the members they reply to.
 */
export async function keepListed(
  ctx: ServiceContext,
  list: List,
  members: ReadonlySet<string>,
  resolved: readonly ResolvedEntry[],
): Promise<ResolvedEntry[]> {
  const ownerId = list.accountId;
  const fromMembers = resolved.filter((i) => members.has(i.entry.account_id));
  const followed = await filterHome(ctx, ownerId, fromMembers, { exclusiveLists: false });
  const listed = followed.filter(
    (item) => item.status.visibility !== "direct" && keepsListReply(list, members, item.status),
  );
  // Lists read in the home context, as Mastodon's do: its `hide` filters leave statuses out.
  const visible = await keepVisible(ctx, ownerId, listed);
  return withoutHidden(ctx, ownerId, "home", visible);
}
