// The viewer's lists that hold an account (Mastodon: GET /api/v1/accounts/:id/lists), oldest
// list first; 404 for an account that does not exist.

import type { List } from "../../domain/list.ts";
import type { ServiceContext } from "../context.ts";
import { requireAccount } from "../graph/target-account.ts";

export async function listsHolding(
  ctx: ServiceContext,
  ownerId: string,
  accountId: string,
): Promise<List[]> {
  const account = await requireAccount(ctx, accountId);
  const lists = await ctx.storage.lists.listByAccount(ownerId);
  if (lists.length === 0) return [];
  const memberships = await ctx.storage.listMembers.findTo(
    account.id,
    lists.map((l) => l.id),
  );
  return lists.filter((l) => memberships.has(l.id));
}
