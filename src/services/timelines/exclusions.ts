// Whom a viewer has shut out of their timelines, for one batch of accounts: accounts they block,
// accounts they mute (a mute past its expiry no longer counts), accounts that block them, and
// accounts on servers they blocked (user domain blocks). Mastodon calls the union "excluded from
// timeline" accounts. The viewer's own blocks, mutes and blocked servers are kept between writes
// (viewer-memo.ts): every page of every timeline asks for them; who blocks the viewer is asked
// per batch.

import type { Mute } from "../../domain/relations.ts";
import type { ServiceContext } from "../context.ts";
import { onBlockedDomain } from "../graph/blocked-domains.ts";
import { isMuteActive } from "../graph/mute-expiry.ts";
import { keptForViewer, type ViewerPart } from "../viewer-memo.ts";

/** Membership in a set of accounts. */
export interface Membership {
  has(accountId: string): boolean;
}

export interface Exclusions {
  blocking: Membership;
  muting: Membership;
  blockedBy: Membership;
  /** On a server the viewer blocks. */
  domainBlocked: Membership;
  /** Blocked, muted, blocking the viewer or on a blocked server. */
  excludes(accountId: string): boolean;
}

const NOBODY: Membership = new Set<string>();

const NONE: Exclusions = {
  blocking: NOBODY,
  muting: NOBODY,
  blockedBy: NOBODY,
  domainBlocked: NOBODY,
  excludes: () => false,
};

/** Everything the viewer blocks and mutes (mutes as records: their expiry is judged at use). */
interface OwnShutOuts {
  blocking: ReadonlySet<string>;
  mutes: ReadonlyMap<string, Mute>;
  /** Normalised, as stored. */
  domains: ReadonlySet<string>;
}

export const OWN_SHUT_OUTS: ViewerPart<OwnShutOuts> = {
  name: "blocks, mutes and blocked servers",
  kinds: ["relations"],
  async read(ctx, viewerId) {
    const { blocks, mutes, accountDomainBlocks } = ctx.storage;
    const [blocked, muted, domains] = await Promise.all([
      blocks.allTargetsFrom(viewerId),
      mutes.allTargetsFrom(viewerId),
      accountDomainBlocks.allTargetsFrom(viewerId),
    ]);
    return {
      blocking: new Set(blocked),
      mutes: muted.length === 0 ? new Map() : await mutes.findFrom(viewerId, muted),
      domains: new Set(domains),
    };
  },
  size: (own) => own.blocking.size + own.mutes.size + own.domains.size,
};

export async function loadExclusions(
  ctx: ServiceContext,
  viewerId: string | null,
  accountIds: Iterable<string>,
): Promise<Exclusions> {
  if (viewerId === null) return NONE;
  const ids = [...new Set(accountIds)].filter((id) => id !== viewerId);
  if (ids.length === 0) return NONE;
  const [own, [blockers]] = await Promise.all([
    keptForViewer(ctx, OWN_SHUT_OUTS, viewerId),
    ctx.storage.joined.edges(viewerId, [{ kind: "blocks", direction: "to", ids }]),
  ]);
  const domainBlocked = new Set<string>();
  if (own.domains.size > 0) {
    for (const account of (await ctx.storage.accounts.getMany(ids)).values()) {
      if (onBlockedDomain(account, own.domains)) domainBlocked.add(account.id);
    }
  }
  const now = ctx.clock.now();
  const blocking = own.blocking;
  const muting: Membership = {
    has(id) {
      const mute = own.mutes.get(id);
      return mute !== undefined && isMuteActive(mute, now);
    },
  };
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
