// What a change of a domain block does beyond its record. Becoming `suspend`: the follows between
// local accounts and the domain's accounts end at once (sever-domain.ts), and a durable job
// purges what is stored of the domain: each known account is marked suspended (remembering the
// block that did it) and its statuses, follows and favourites go, as when its server deletes it.
// Ceasing to be `suspend` (a weaker severity, or lifted): the accounts that block suspended are
// suspended no more; their purged statuses do not come back, and follows are not restored, as in
// Mastodon. `silence`, reject_media and reject_reports are read where they apply; nothing to do.

import type { Account } from "../../domain/account.ts";
import type { DomainBlock } from "../../domain/server-blocks.ts";
import type { ServiceContext } from "../context.ts";
import { deleteRemoteActor } from "../federation/remote-delete-actor.ts";
import { domainBlockOf } from "./domain-blocks.ts";
import { blockCandidates } from "./hosts.ts";
import { severDomain } from "./sever-domain.ts";

export const DOMAIN_PURGE_JOB = "domain-block.purge";

const PAGE = 200;

export interface BlockChangeResult {
  /** Follows and follow requests ended between local accounts and the domain's accounts. */
  severed: number;
}

const covers = (domain: string) => (host: string) => blockCandidates(host).includes(domain);

export async function applyBlockChange(
  ctx: ServiceContext,
  before: DomainBlock | undefined,
  after: DomainBlock | undefined,
): Promise<BlockChangeResult> {
  const wasSuspended = before?.severity === "suspend";
  if (after?.severity === "suspend") {
    const severed = await severDomain(ctx, covers(after.domain));
    if (!wasSuspended) await ctx.jobs.enqueue(DOMAIN_PURGE_JOB, { domain: after.domain });
    return { severed };
  }
  if (before && wasSuspended) await liftSuspension(ctx, before.domain);
  return { severed: 0 };
}

/** The remote accounts known here whose domain the rule for `domain` covers. */
export async function accountsUnder(ctx: ServiceContext, domain: string): Promise<Account[]> {
  const out: Account[] = [];
  const hosts = (await ctx.storage.accounts.domains()).filter(covers(domain));
  for (const host of hosts) {
    // The account search matches `username@domain`; only exact domains are kept.
    for (let offset = 0; ; offset += PAGE) {
      const page = await ctx.storage.accounts.search(host, {
        limit: PAGE,
        offset,
        localOnly: false,
      });
      out.push(...page.filter((a) => a.domain === host));
      if (page.length < PAGE) break;
    }
  }
  return [...new Map(out.map((a) => [a.id, a])).values()];
}

/** The DOMAIN_PURGE_JOB: does nothing when the block is gone or no longer `suspend`. */
export async function purgeSuspendedDomain(ctx: ServiceContext, domain: string): Promise<number> {
  const block = await domainBlockOf(ctx, domain);
  if (block?.severity !== "suspend") return 0;
  let purged = 0;
  for (const account of await accountsUnder(ctx, domain)) {
    if (!account.suspended) {
      await ctx.storage.accounts.put({
        ...account,
        suspended: true,
        suspendedByDomainBlock: domain,
        updatedAt: ctx.clock.now().toISOString(),
      });
    } else if (account.suspendedByDomainBlock !== domain) {
      // Deleted by its own server already (or by another block): nothing left to purge.
      continue;
    }
    const current = (await ctx.storage.accounts.get(account.id)) ?? account;
    await deleteRemoteActor(ctx, current);
    purged++;
  }
  return purged;
}

async function liftSuspension(ctx: ServiceContext, domain: string): Promise<void> {
  for (const account of await accountsUnder(ctx, domain)) {
    if (account.suspendedByDomainBlock !== domain) continue;
    const { suspended: _s, suspendedByDomainBlock: _b, ...rest } = account;
    await ctx.storage.accounts.put({ ...rest, updatedAt: ctx.clock.now().toISOString() });
  }
}
