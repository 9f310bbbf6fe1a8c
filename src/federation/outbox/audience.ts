// Who must hear about a local account's act: its remote followers, the accounts a status
// mentions or answers, those who interacted with it. Only remote accounts matter here (local
// ones see the records directly); deliver.ts drops any local or blocked one that slips in.

import type { Account } from "../../domain/account.ts";
import type { DomainEvent } from "../../domain/events.ts";
import type { Edge } from "../../domain/relations.ts";
import type { Status } from "../../domain/status.ts";
import { isOpenToAll } from "../../domain/visibility.ts";
import type { ServiceContext } from "../../services/context.ts";
import { followsToDuring } from "../../services/event-reads.ts";
import type { EdgeStore } from "../../storage/ports.ts";

const PAGE = 200;

/** Every account id at the source end of edges to `targetId` (all pages). */
async function sourcesOf<E extends Edge>(store: EdgeStore<E>, targetId: string): Promise<string[]> {
  const ids: string[] = [];
  let maxId: string | undefined;
  for (;;) {
    const page = await store.listTo(targetId, { limit: PAGE, maxId });
    for (const edge of page) ids.push(edge.accountId);
    if (page.length < PAGE) return ids;
    maxId = page[page.length - 1]?.id;
  }
}

async function remoteAccounts(ctx: ServiceContext, ids: Iterable<string>): Promise<Account[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const found = await ctx.storage.accounts.getMany(unique);
  return [...found.values()].filter((a) => a.domain !== null);
}

export async function remoteFollowersOf(
  ctx: ServiceContext,
  accountId: string,
): Promise<Account[]> {
  return remoteAccounts(ctx, await sourcesOf(ctx.storage.follows, accountId));
}

/** The remote accounts the local account follows. */
export async function remoteFollowingOf(
  ctx: ServiceContext,
  accountId: string,
): Promise<Account[]> {
  return remoteAccounts(ctx, await ctx.storage.follows.allTargetsFrom(accountId));
}

/**
 * One recipient per known server: an account with a shared inbox where the server has one
 * (a delivery there reaches the whole server), else each of its accounts. Every remote record
 * is read: for rare acts to the whole network (an actor Delete).
 */
export async function knownServers(ctx: ServiceContext): Promise<Account[]> {
  const shared = new Map<string, Account>();
  const personal: Account[] = [];
  let maxId: string | undefined;
  for (;;) {
    const page = await ctx.storage.accounts.list({ origin: "remote" }, { limit: PAGE, maxId });
    for (const account of page) {
      if (account.suspended || !account.remote || account.domain === null) continue;
      const domain = account.domain.toLowerCase();
      if (account.remote.sharedInbox !== null) {
        if (!shared.has(domain)) shared.set(domain, account);
      } else personal.push(account);
    }
    if (page.length < PAGE) break;
    maxId = page[page.length - 1]?.id;
  }
  return [
    ...shared.values(),
    ...personal.filter((a) => !shared.has((a.domain as string).toLowerCase())),
  ];
}

/** Everyone who voted in a poll (remote ones), to tell them the new counts. */
export async function remoteVotersOf(ctx: ServiceContext, pollId: string): Promise<Account[]> {
  return remoteAccounts(ctx, await sourcesOf(ctx.storage.pollVotes, pollId));
}

export async function remoteAccount(
  ctx: ServiceContext,
  accountId: string | null,
): Promise<Account | undefined> {
  if (accountId === null) return undefined;
  const account = await ctx.storage.accounts.get(accountId);
  return account && account.domain !== null ? account : undefined;
}

async function rebloggersOf(ctx: ServiceContext, statusId: string): Promise<string[]> {
  const ids: string[] = [];
  let maxId: string | undefined;
  for (;;) {
    const page = await ctx.storage.statuses.listReblogs(statusId, { limit: PAGE, maxId });
    for (const reblog of page) ids.push(reblog.accountId);
    if (page.length < PAGE) return ids;
    maxId = page[page.length - 1]?.id;
  }
}

/**
 * The remote audience of a local status, by its visibility (as Mastodon distributes): direct →
 * the mentioned accounts only; private → followers and mentioned; public and unlisted → also
 * the author of the status it answers. With `interactors` (edits and deletions), also those
 * who boosted or favourited it, so their copies follow.
 */
export async function statusAudience(
  ctx: ServiceContext,
  status: Status,
  options: {
    interactors?: boolean;
    /** The event announced: its other listeners' read of the followers is shared. */
    event?: DomainEvent;
  } = {},
): Promise<Account[]> {
  const ids = [...status.mentionIds];
  if (status.visibility !== "direct") {
    const { event } = options;
    if (event) {
      const follows = await followsToDuring(ctx, event, status.accountId);
      for (const follow of follows) ids.push(follow.accountId);
    } else ids.push(...(await sourcesOf(ctx.storage.follows, status.accountId)));
  }
  const open = isOpenToAll(status.visibility);
  if (open && status.inReplyToAccountId !== null) ids.push(status.inReplyToAccountId);
  if (open && options.interactors) {
    ids.push(...(await rebloggersOf(ctx, status.id)));
    ids.push(...(await sourcesOf(ctx.storage.favourites, status.id)));
  }
  return remoteAccounts(ctx, ids);
}
