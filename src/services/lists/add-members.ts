// Add accounts to a list (Mastodon: POST /api/v1/lists/:id/accounts). All or nothing, as
// Mastodon adds them in one transaction: every account must exist (else 404), be followed by the
// owner or asked to be (else 422; the owner may add themself), and not be in the list yet (422).

import { notFound, unprocessable } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { listsLockKey } from "./create-list.ts";
import { ownList } from "./own-list.ts";

export async function addListMembers(
  ctx: ServiceContext,
  ownerId: string,
  listId: string,
  accountIds: readonly string[],
): Promise<void> {
  const ids = [...new Set(accountIds)];
  await ctx.storage.coordination.withLock(listsLockKey(ownerId), async () => {
    const list = await ownList(ctx, ownerId, listId);
    const { accounts, follows, followRequests, listMembers } = ctx.storage;
    const found = await accounts.getMany(ids);
    if (ids.some((id) => !found.has(id))) throw notFound();

    const others = ids.filter((id) => id !== ownerId);
    const [followed, requested, present] = await Promise.all([
      follows.findFrom(ownerId, others),
      followRequests.findFrom(ownerId, others),
      listMembers.findFrom(list.id, ids),
    ]);
    if (others.some((id) => !followed.has(id) && !requested.has(id))) {
      throw unprocessable("Validation failed: Account follow relationship missing");
    }
    if (present.size > 0) throw unprocessable("Validation failed: Account has already been taken");

    const createdAt = ctx.clock.now().toISOString();
    for (const targetId of ids) {
      await listMembers.put({ id: ctx.ids.next(), accountId: list.id, targetId, createdAt });
    }
  });
}
