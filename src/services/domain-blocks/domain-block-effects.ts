// What a change of a domain block does beyond its record. Becoming `suspend`: the follows between
// local accounts and the domain's accounts end at once (sever-domain.ts), and a durable job
// purges what is stored of the domain: each known account is marked suspended (remembering the
// block that did it) and its statuses, follows and favourites go, as when its server deletes it.
// Ceasing to be `suspend` (a weaker severity, or lifted): the accounts that block suspended are
// suspended no more; their purged statuses do not come back, and follows are not restored, as in
// Mastodon. `silence`, reject_media and reject_reports are read where they apply; nothing to do.
//
// The block's record and the job that carries its effects are stored together
// (JobQueue.enqueueAround: the job no later than the record), so a crash right after the record
// cannot lose them. Both jobs wait a minute (a lease), so none runs before the record is written;
// the purge job is then made due at once, and also ends the follows again (a crash may have come
// before the inline run did); lifting runs inline, and its job is dropped once that finishes. Each job reads the block when it runs and does
// nothing when the block no longer asks for it (the write failed, or was changed since).

import type { Account } from "../../domain/account.ts";
import type { DomainBlock } from "../../domain/server-blocks.ts";
import type { ServiceContext } from "../context.ts";
import { enqueueWithWrite } from "../job-queue.ts";
import { deleteRemoteActor } from "../remote/remote-delete-actor.ts";
import { domainBlockOf } from "./domain-blocks.ts";
import { blockCandidates } from "./hosts.ts";
import { severDomain } from "./sever-domain.ts";

export const DOMAIN_PURGE_JOB = "domain-block.purge";
export const DOMAIN_LIFT_JOB = "domain-block.lift";

/** How long a change's job waits before it runs: the write, and the inline lift, come first. */
const LEASE_MS = 60_000;

const PAGE = 200;

export interface BlockChangeResult {
  /** Follows and follow requests ended between local accounts and the domain's accounts. */
  severed: number;
}

const covers = (domain: string) => (host: string) => blockCandidates(host).includes(domain);

/**
 * Runs `write` (which stores `after`, or removes `before` when `after` is undefined) with the
 * job its effects need stored no later than it, then the effects that run at once.
 */
export async function writeBlockChange(
  ctx: ServiceContext,
  before: DomainBlock | undefined,
  after: DomainBlock | undefined,
  write: () => Promise<void>,
): Promise<BlockChangeResult> {
  const wasSuspended = before?.severity === "suspend";
  // Each job waits a lease: it may be stored before the record it reads is (on PostgreSQL it
  // is, in a statement of its own), and a runner must not find the old record and finish.
  const runAt = new Date(ctx.clock.now().getTime() + LEASE_MS);
  if (after?.severity === "suspend") {
    if (wasSuspended) await write();
    else {
      // Released once the block is written; after a crash, it runs when the lease is over.
      const group = `${DOMAIN_PURGE_JOB}:${after.domain}`;
      const purge = { domain: after.domain };
      await enqueueWithWrite(ctx.jobs, DOMAIN_PURGE_JOB, purge, { runAt, group }, write);
      // The follows end here first, all of them counted; then the job purges the rest (a
      // runner that took it at once would have ended some of them itself, uncounted).
      const severed = await severDomain(ctx, covers(after.domain));
      await ctx.jobs.release(group);
      return { severed };
    }
    return { severed: await severDomain(ctx, covers(after.domain)) };
  }
  if (!before || !wasSuspended) {
    await write();
    return { severed: 0 };
  }
  const lift = { domain: before.domain };
  const jobId = await enqueueWithWrite(ctx.jobs, DOMAIN_LIFT_JOB, lift, { runAt }, write);
  await liftSuspension(ctx, before.domain);
  await ctx.jobs.cancel(jobId);
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
  // Already done inline unless a crash came first; ending what is left is cheap.
  await severDomain(ctx, covers(domain));
  let purged = 0;
  for (const account of await accountsUnder(ctx, domain)) {
    if (!account.suspended || account.suspendedByItsServer) {
      // One its server had flagged is the block's now: lifting the block restores it.
      const { suspendedByItsServer: _f, ...unflagged } = account;
      await ctx.storage.accounts.put({
        ...unflagged,
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

/** The DOMAIN_LIFT_JOB: does nothing while the domain's block is still a suspension. */
export async function liftDomainSuspension(ctx: ServiceContext, domain: string): Promise<void> {
  if ((await domainBlockOf(ctx, domain))?.severity === "suspend") return;
  await liftSuspension(ctx, domain);
}

async function liftSuspension(ctx: ServiceContext, domain: string): Promise<void> {
  for (const account of await accountsUnder(ctx, domain)) {
    if (account.suspendedByDomainBlock !== domain) continue;
    const { suspended: _s, suspendedByDomainBlock: _b, ...rest } = account;
    await ctx.storage.accounts.put({ ...rest, updatedAt: ctx.clock.now().toISOString() });
  }
}
