// Whom a viewer has shut out of their timelines, for one batch of accounts: accounts they block,
// accounts they mute (a mute past its expiry no longer counts), accounts that block them, and
// accounts on servers they blocked (user domain blocks). Mastodon calls the union "excluded from
// timeline" accounts.

import type { ServiceContext } from "../context.ts";
import { domainBlockedAccounts } from "../graph/blocked-domains.ts";
import { isMuteActive } from "../graph/mute-expiry.ts";

export interface Exclusions {
  blocking: ReadonlySet<string>;
  muting: ReadonlySet<string>;
  blockedBy: ReadonlySet<string>;
  /** On a server the viewer blocks. */
  domainBlocked: ReadonlySet<string>;
  /** Blocked, muted, blocking the viewer or on a blocked server. */
  excludes(accountId: string): boolean;
}

const NONE: Exclusions = {
  blocking: new Set(),
  muting: new Set(),
  blockedBy: new Set(),
  domainBlocked: new Set(),
  excludes: () => false,
};

export async function loadExclusions(
  ctx: ServiceContext,
  viewerId: string | null,
  accountIds: Iterable<string>,
): Promise<Exclusions> {
  if (viewerId === null) return NONE;
  const ids = [...new Set(accountIds)].filter((id) => id !== viewerId);
  if (ids.length === 0) return NONE;
  const [[blocks, mutes, blockers], domainBlocked] = await Promise.all([
    ctx.storage.joined.edges(viewerId, [
      { kind: "blocks", direction: "from", ids },
      { kind: "mutes", direction: "from", ids },
      { kind: "blocks", direction: "to", ids },
    ]),
    domainBlockedAccounts(ctx, viewerId, ids),
  ]);
  const now = ctx.clock.now();
  const muting = new Set<string>();
  for (const [id, mute] of mutes) if (isMuteActive(mute, now)) muting.add(id);
  const blocking = new Set(blocks.keys());
  const blockedBy = new Set(blockers.keys());
  return {
    blocking,
    muting,
    blockedBy,
    domainBlocked,
    excludes: (id) =>
      blocking.has(id) || muting.has(id) || blockedBy.has(id) || domainBlocked.has(id),
  };
}
