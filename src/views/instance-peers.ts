// GET /api/v1/instance/peers: the servers this one has met, i.e. the remote domains it knows
// accounts of, leaving out suspended ones (and their subdomains) as Mastodon does.

import type { ServiceContext } from "../services/context.ts";
import { blockCandidates, listDomainBlocks } from "../services/domain-blocks/domain-blocks.ts";

export async function loadPeers(ctx: ServiceContext): Promise<string[]> {
  const [domains, blocks] = await Promise.all([
    ctx.storage.accounts.domains(),
    listDomainBlocks(ctx),
  ]);
  const blocked = new Set(blocks.filter((b) => b.severity === "suspend").map((b) => b.domain));
  return domains.filter((d) => !blockCandidates(d).some((c) => blocked.has(c))).sort();
}
