// A user's own block of a whole server (Mastodon's AccountDomainBlock): blocking is recorded with
// its event, and the event's listener ends the user's follows with that server
// (domain-block-sever.ts), so a crash part way still finishes the clean-up. Blocking a domain
// again keeps the first block; unblocking one that is not blocked is not an error. Unblocking
// restores no follow, as in Mastodon.

import { unprocessable } from "../../domain/errors.ts";
import type { AccountDomainBlock } from "../../domain/relations.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { normalizeDomain } from "../domain-blocks/domain-blocks.ts";
import { publishAround } from "../events.ts";

function domainParam(domain: string | undefined): string {
  if (domain === undefined || domain.trim() === "") {
    throw unprocessable("Validation failed: Domain can't be blank");
  }
  try {
    return normalizeDomain(domain);
  } catch {
    throw unprocessable("Validation failed: Domain is not a valid domain name");
  }
}

export async function blockDomain(
  ctx: ServiceContext,
  viewerId: string,
  domain: string | undefined,
): Promise<void> {
  const normalized = domainParam(domain);
  await ctx.storage.coordination.withLock(`account-domain-block:${viewerId}`, async () => {
    if (await ctx.storage.accountDomainBlocks.get(viewerId, normalized)) return;
    const block: AccountDomainBlock = {
      id: ctx.ids.next(),
      accountId: viewerId,
      targetId: normalized,
      createdAt: ctx.clock.now().toISOString(),
    };
    await publishAround(ctx.events, { type: "account.domain_blocked", block }, () =>
      ctx.storage.accountDomainBlocks.put(block),
    );
  });
}

export async function unblockDomain(
  ctx: ServiceContext,
  viewerId: string,
  domain: string | undefined,
): Promise<void> {
  await ctx.storage.accountDomainBlocks.delete(viewerId, domainParam(domain));
}

/** The viewer's blocks, newest first (paged by the block's id, as Mastodon's Link headers). */
export function listDomainBlocks(
  ctx: ServiceContext,
  viewerId: string,
  page: IdPage,
): Promise<AccountDomainBlock[]> {
  return ctx.storage.accountDomainBlocks.listFrom(viewerId, page);
}
