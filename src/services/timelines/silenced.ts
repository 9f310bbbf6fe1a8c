// Silenced (limited) accounts stay out of the public, hashtag and trending lists for everyone
// but themselves and their followers, as Mastodon's limited accounts do: an account a moderator
// silenced, or any account of a server under a `silence` domain block (or stricter). One read of
// the batch's authors, one look at their servers' blocks, and one of the viewer's follows of the
// silenced ones among them.

import { isSilenced } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";
import { silencedHosts } from "../domain-blocks/domain-blocks.ts";

/** The host of a remote account's ActivityPub id (its server's, which blocks name). */
function hostOf(uri: string): string | null {
  try {
    return new URL(uri).host;
  } catch {
    return null;
  }
}

/** The batch's authors the viewer may not see in public lists because they are silenced. */
export async function silencedFor(
  ctx: ServiceContext,
  viewerId: string | null,
  authorIds: Iterable<string>,
): Promise<ReadonlySet<string>> {
  const ids = [...new Set(authorIds)].filter((id) => id !== viewerId);
  if (ids.length === 0) return new Set();
  const authors = await ctx.storage.accounts.getMany(ids);
  const remoteHostOf = (id: string) => {
    const author = authors.get(id);
    return author && author.domain !== null ? hostOf(author.uri) : null;
  };
  const hosts = ids.flatMap((id) => remoteHostOf(id) ?? []);
  const silencedServers = hosts.length === 0 ? new Set() : await silencedHosts(ctx, hosts);
  const silenced = ids.filter((id) => {
    const author = authors.get(id);
    if (author === undefined) return false;
    return isSilenced(author) || silencedServers.has(remoteHostOf(id));
  });
  if (silenced.length === 0 || viewerId === null) return new Set(silenced);
  const [follows] = await ctx.storage.joined.edges(viewerId, [
    { kind: "follows", direction: "from", ids: silenced },
  ]);
  return new Set(silenced.filter((id) => !follows.has(id)));
}
