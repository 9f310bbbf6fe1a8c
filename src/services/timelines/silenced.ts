// Accounts a moderator silenced (limited) stay out of the public, hashtag and trending lists
// for everyone but themselves and their followers, as Mastodon's limited accounts do. One read
// of the batch's authors, and one of the viewer's follows of the silenced ones among them.

import { isSilenced } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";

/** The batch's authors the viewer may not see in public lists because they are silenced. */
export async function silencedFor(
  ctx: ServiceContext,
  viewerId: string | null,
  authorIds: Iterable<string>,
): Promise<ReadonlySet<string>> {
  const ids = [...new Set(authorIds)].filter((id) => id !== viewerId);
  if (ids.length === 0) return new Set();
  const authors = await ctx.storage.accounts.getMany(ids);
  const silenced = ids.filter((id) => {
    const author = authors.get(id);
    return author !== undefined && isSilenced(author);
  });
  if (silenced.length === 0 || viewerId === null) return new Set(silenced);
  const [follows] = await ctx.storage.joined.edges(viewerId, [
    { kind: "follows", direction: "from", ids: silenced },
  ]);
  return new Set(silenced.filter((id) => !follows.has(id)));
}
