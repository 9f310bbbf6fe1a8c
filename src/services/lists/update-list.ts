// Change a list's title, reply policy or exclusivity (Mastodon: PUT /api/v1/lists/:id); what
// the client leaves out stays as it was.

import type { List } from "../../domain/list.ts";
import type { ServiceContext } from "../context.ts";
import { listsLockKey } from "./create-list.ts";
import { checkTitle, type ListFields } from "./list-fields.ts";
import { ownList } from "./own-list.ts";

export async function updateList(
  ctx: ServiceContext,
  ownerId: string,
  listId: string,
  changes: Partial<ListFields>,
): Promise<List> {
  const title = changes.title === undefined ? undefined : checkTitle(changes.title);
  return ctx.storage.coordination.withLock(listsLockKey(ownerId), async () => {
    const list = await ownList(ctx, ownerId, listId);
    const updated: List = {
      ...list,
      title: title ?? list.title,
      repliesPolicy: changes.repliesPolicy ?? list.repliesPolicy,
      exclusive: changes.exclusive ?? list.exclusive,
      updatedAt: ctx.clock.now().toISOString(),
    };
    await ctx.storage.lists.put(updated);
    return updated;
  });
}
