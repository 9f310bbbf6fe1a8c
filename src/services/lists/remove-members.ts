// Remove accounts from a list (Mastodon: DELETE /api/v1/lists/:id/accounts); an account that
// was not in it is no error.

import type { ServiceContext } from "../context.ts";
import { listsLockKey } from "./create-list.ts";
import { ownList } from "./own-list.ts";

export async function removeListMembers(
  ctx: ServiceContext,
  ownerId: string,
  listId: string,
  accountIds: readonly string[],
): Promise<void> {
  await ctx.storage.coordination.withLock(listsLockKey(ownerId), async () => {
    const list = await ownList(ctx, ownerId, listId);
    for (const id of new Set(accountIds)) await ctx.storage.listMembers.delete(list.id, id);
  });
}
