// Create a list (Mastodon: POST /api/v1/lists). A user has at most LISTS_PER_ACCOUNT lists; the
// count and the write happen under the owner's lock, so two racing creations cannot both pass.

import { unprocessable } from "../../domain/errors.ts";
import { LISTS_PER_ACCOUNT, type List } from "../../domain/list.ts";
import type { ServiceContext } from "../context.ts";
import { checkTitle, type ListFields } from "./list-fields.ts";

export function listsLockKey(ownerId: string): string {
  return `lists:${ownerId}`;
}

export async function createList(
  ctx: ServiceContext,
  ownerId: string,
  fields: ListFields,
): Promise<List> {
  const title = checkTitle(fields.title);
  return ctx.storage.coordination.withLock(listsLockKey(ownerId), async () => {
    const existing = await ctx.storage.lists.listByAccount(ownerId);
    if (existing.length >= LISTS_PER_ACCOUNT) {
      throw unprocessable("Validation failed: You have reached the maximum number of lists");
    }
    const now = ctx.clock.now().toISOString();
    const list: List = {
      id: ctx.ids.next(),
      accountId: ownerId,
      title,
      repliesPolicy: fields.repliesPolicy,
      exclusive: fields.exclusive,
      createdAt: now,
      updatedAt: now,
    };
    await ctx.storage.lists.put(list);
    return list;
  });
}
