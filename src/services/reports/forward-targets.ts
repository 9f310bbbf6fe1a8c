// Where a report about remote statuses may also be forwarded besides the target's server: the
// servers of the remote accounts those statuses reply to (Mastodon's `forward_to_domains`, which
// takes no other server). A report is never sent to a server with no part in the statuses.

import { type Account, isLocal } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";

/** The remote accounts the statuses reply to, by their (lower-case) domain. */
export async function repliedToServers(
  ctx: ServiceContext,
  statuses: readonly Status[],
): Promise<Map<string, Account[]>> {
  const ids = new Set<string>();
  for (const status of statuses) {
    if (status.inReplyToAccountId !== null) ids.add(status.inReplyToAccountId);
  }
  const accounts = await ctx.storage.accounts.getMany([...ids]);
  const byDomain = new Map<string, Account[]>();
  for (const account of accounts.values()) {
    if (isLocal(account) || account.domain === null) continue;
    const domain = account.domain.toLowerCase();
    byDomain.set(domain, [...(byDomain.get(domain) ?? []), account]);
  }
  return byDomain;
}
