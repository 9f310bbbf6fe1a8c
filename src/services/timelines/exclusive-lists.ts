// Which of some authors are members of the viewer's exclusive lists: their statuses and boosts
// show in those lists only, not in the viewer's home timeline (Mastodon's `exclusive` lists).
// Which lists are exclusive is kept between writes (viewer-memo.ts): every home page asks.

import type { ServiceContext } from "../context.ts";
import { keptForViewer, type ViewerPart } from "../viewer-memo.ts";

/** The ids of the viewer's exclusive lists. */
export const EXCLUSIVE_LISTS: ViewerPart<readonly string[]> = {
  name: "exclusive lists",
  kinds: ["relations"],
  read: async (ctx, viewerId) =>
    (await ctx.storage.lists.listByAccount(viewerId)).filter((l) => l.exclusive).map((l) => l.id),
  size: (ids) => ids.length,
};

export async function exclusiveListMembers(
  ctx: ServiceContext,
  viewerId: string,
  authorIds: readonly string[],
): Promise<ReadonlySet<string>> {
  const exclusive = await keptForViewer(ctx, EXCLUSIVE_LISTS, viewerId);
  const members = new Set<string>();
  if (exclusive.length === 0) return members;
  const authors = [...new Set(authorIds)].filter((id) => id !== viewerId);
  const found = await Promise.all(
    exclusive.map((listId) => ctx.storage.listMembers.findFrom(listId, authors)),
  );
  for (const memberships of found) for (const id of memberships.keys()) members.add(id);
  return members;
}
