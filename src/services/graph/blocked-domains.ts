// Which accounts a viewer has hidden by blocking their server (user domain blocks), for the
// read side: timelines, notifications, threads and search leave these accounts out. Most users
// block no domain, so that case costs one lookup and no account reads.

import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";

/** The domains the viewer blocks (normalised, as stored). */
export async function blockedDomains(
  ctx: ServiceContext,
  viewerId: string | null,
): Promise<ReadonlySet<string>> {
  if (viewerId === null) return new Set();
  return new Set(await ctx.storage.accountDomainBlocks.allTargetsFrom(viewerId));
}

/** Whether the account lives on a server in `domains` (local accounts never do). */
export function onBlockedDomain(account: Account, domains: ReadonlySet<string>): boolean {
  return account.domain !== null && domains.has(account.domain.toLowerCase());
}

/** Of `accountIds`, those on a server the viewer blocks. */
export async function domainBlockedAccounts(
  ctx: ServiceContext,
  viewerId: string | null,
  accountIds: Iterable<string>,
): Promise<Set<string>> {
  const domains = await blockedDomains(ctx, viewerId);
  if (domains.size === 0) return new Set();
  const accounts = await ctx.storage.accounts.getMany([...new Set(accountIds)]);
  const hidden = new Set<string>();
  for (const account of accounts.values()) {
    if (onBlockedDomain(account, domains)) hidden.add(account.id);
  }
  return hidden;
}
