// The viewer's lists: the one a request names, if the viewer owns it (another user's list is
// answered like a list that does not exist, 404, as in Mastodon), and all of them.

import { notFound } from "../../domain/errors.ts";
import type { List } from "../../domain/list.ts";
import type { ServiceContext } from "../context.ts";

export async function ownList(ctx: ServiceContext, ownerId: string, listId: string): Promise<List> {
  const list = await ctx.storage.lists.get(listId);
  if (!list || list.accountId !== ownerId) throw notFound();
  return list;
}

/** The owner's lists, oldest first (Mastodon: GET /api/v1/lists). */
export function ownLists(ctx: ServiceContext, ownerId: string): Promise<List[]> {
  return ctx.storage.lists.listByAccount(ownerId);
}
