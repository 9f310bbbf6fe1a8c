// Whom a viewer never wants to be shown as a discovery (the directory, follow suggestions): the
// accounts they block, that block them, that they mute (while the mute lasts), and the servers
// they block. Unlike timeline exclusions (timelines/exclusions.ts), which test one page's
// authors, discovery lists are cut from every account, so the whole set is read up front.

import type { ServiceContext } from "../context.ts";
import { allEdges } from "../domain-blocks/sever-domain.ts";
import { blockedDomains } from "../graph/blocked-domains.ts";
import { mutedAccountIds } from "../graph/muted-accounts.ts";

export interface ShutOut {
  accountIds: ReadonlySet<string>;
  /** Normalised (lower-case) domains. */
  domains: ReadonlySet<string>;
}

export async function shutOutBy(ctx: ServiceContext, viewerId: string | null): Promise<ShutOut> {
  if (viewerId === null) return { accountIds: new Set(), domains: new Set() };
  const [blocking, blockers, muting, domains] = await Promise.all([
    ctx.storage.blocks.allTargetsFrom(viewerId),
    allEdges(ctx.storage.blocks, viewerId, "to"),
    mutedAccountIds(ctx, viewerId),
    blockedDomains(ctx, viewerId),
  ]);
  return {
    accountIds: new Set([...blocking, ...blockers.map((b) => b.accountId), ...muting]),
    domains,
  };
}
