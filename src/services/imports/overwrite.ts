// Overwrite mode (Mastodon's BulkImportService): before the rows are applied, what the account
// has of the import's kind but the file does not list is undone through the usual services
// (unfollow, unblock…), so federation and events follow. Lists named in the file are emptied
// and the others deleted, as Mastodon does (memberships are added back by the rows).

import { type Account, acctOf } from "../../domain/account.ts";
import type { CsvImport, ImportRow } from "../../domain/csv-import.ts";
import type { Edge } from "../../domain/relations.ts";
import type { ServiceContext } from "../context.ts";
import { unblockDomain } from "../graph/domain-block.ts";
import { unblockAccount } from "../graph/unblock.ts";
import { unfollowAccount } from "../graph/unfollow.ts";
import { unmuteAccount } from "../graph/unmute.ts";
import { unbookmarkStatus } from "../interactions/unbookmark.ts";
import { deleteList } from "../lists/delete-list.ts";
import { ownLists } from "../lists/own-list.ts";
import { removeListMembers } from "../lists/remove-members.ts";
import { collectPages } from "../paging.ts";

/** An account address as a file may write it, compared without case or our own domain. */
export function acctKey(ctx: ServiceContext, acct: string): string {
  const lower = acct.replace(/^@/, "").toLowerCase();
  const local = `@${ctx.settings.domain.toLowerCase()}`;
  return lower.endsWith(local) ? lower.slice(0, -local.length) : lower;
}

function accountKey(account: Account): string {
  return acctOf(account).toLowerCase();
}

/** Undoes each account edge whose target the file does not name. */
async function keepListedAccounts(
  ctx: ServiceContext,
  edges: readonly Edge[],
  rows: readonly ImportRow[],
  undo: (targetId: string) => Promise<unknown>,
): Promise<void> {
  const listed = new Set(rows.flatMap((row) => (row.acct ? [acctKey(ctx, row.acct)] : [])));
  const targets = await ctx.storage.accounts.getMany(edges.map((edge) => edge.targetId));
  for (const edge of edges) {
    const target = targets.get(edge.targetId);
    if (!target || !listed.has(accountKey(target))) await undo(edge.targetId);
  }
}

export async function overwrite(
  ctx: ServiceContext,
  record: CsvImport,
  rows: readonly ImportRow[],
): Promise<void> {
  const owner = record.accountId;
  const { storage } = ctx;
  switch (record.type) {
    case "following": {
      const edges = await collectPages((page) => storage.follows.listFrom(owner, page));
      return keepListedAccounts(ctx, edges, rows, (id) => unfollowAccount(ctx, owner, id));
    }
    case "blocks": {
      const edges = await collectPages((page) => storage.blocks.listFrom(owner, page));
      return keepListedAccounts(ctx, edges, rows, (id) => unblockAccount(ctx, owner, id));
    }
    case "mutes": {
      const edges = await collectPages((page) => storage.mutes.listFrom(owner, page));
      return keepListedAccounts(ctx, edges, rows, (id) => unmuteAccount(ctx, owner, id));
    }
    case "domain-blocks": {
      const listed = new Set(rows.flatMap((row) => (row.domain ? [row.domain] : [])));
      const edges = await collectPages((page) => storage.accountDomainBlocks.listFrom(owner, page));
      for (const edge of edges) {
        if (!listed.has(edge.targetId)) await unblockDomain(ctx, owner, edge.targetId);
      }
      return;
    }
    case "bookmarks": {
      const listed = new Set(rows.flatMap((row) => (row.uri ? [row.uri] : [])));
      const edges = await collectPages((page) => storage.bookmarks.listFrom(owner, page));
      const statuses = await storage.statuses.getMany(edges.map((edge) => edge.targetId));
      for (const edge of edges) {
        const status = statuses.get(edge.targetId);
        if (status && (listed.has(status.uri) || (status.url && listed.has(status.url)))) continue;
        await unbookmarkStatus(ctx, owner, edge.targetId).catch(() => undefined);
      }
      return;
    }
    case "lists": {
      const titles = new Set(rows.flatMap((row) => (row.listName ? [row.listName] : [])));
      for (const list of await ownLists(ctx, owner)) {
        if (!titles.has(list.title)) {
          await deleteList(ctx, owner, list.id);
          continue;
        }
        const members = await collectPages((page) => storage.listMembers.listFrom(list.id, page));
        await removeListMembers(
          ctx,
          owner,
          list.id,
          members.map((member) => member.targetId),
        );
      }
      return;
    }
  }
}
