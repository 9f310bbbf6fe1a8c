// Delete a list and its memberships (Mastodon: DELETE /api/v1/lists/:id). The members go first:
// a crash half-way leaves the list, emptier, to delete again, never memberships of no list.

import type { ServiceContext } from "../context.ts";
import { walkPages } from "../paging.ts";
import { listsLockKey } from "./create-list.ts";
import { ownList } from "./own-list.ts";

export async function deleteList(ctx: ServiceContext, ownerId: string, listId: string) {
  await ctx.storage.coordination.withLock(listsLockKey(ownerId), async () => {
    const list = await ownList(ctx, ownerId, listId);
    const { listMembers } = ctx.storage;
    const members = [];
    for await (const member of walkPages((page) => listMembers.listFrom(list.id, page))) {
      members.push(member);
    }
    for (const member of members) await listMembers.delete(list.id, member.targetId);
    await ctx.storage.lists.delete(list.id);
  });
}
