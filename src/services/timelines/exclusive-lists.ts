// Which of some authors are members of the viewer's exclusive lists: their statuses and boosts
// show in those lists only, not in the viewer's home timeline (Mastodon's `exclusive` lists).

import type { ServiceContext } from "../context.ts";

export async function exclusiveListMembers(
  ctx: ServiceContext,
  viewerId: string,
  authorIds: readonly string[],
): Promise<ReadonlySet<string>> {
  const exclusive = (await ctx.storage.lists.listByAccount(viewerId)).filter((l) => l.exclusive);
  const members = new Set<string>();
  if (exclusive.length === 0) return members;
  const authors = [...new Set(authorIds)].filter((id) => id !== viewerId);
  const found = await Promise.all(
    exclusive.map((list) => ctx.storage.listMembers.findFrom(list.id, authors)),
  );
  for (const memberships of found) for (const id of memberships.keys()) members.add(id);
  return members;
}
