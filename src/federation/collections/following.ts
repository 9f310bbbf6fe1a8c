// The following collection: the ids of the accounts an account follows, newest follow first,
// paged by follow id, with totalItems.

import type { Federation } from "@fedify/fedify";
import type { ServiceContext } from "../../services/context.ts";
import { collectionOwner, firstCursorOf, splitPage, windowOf } from "./paging.ts";

export const FOLLOWING_PATH = "/users/{identifier}/following";

export function registerFollowing(federation: Federation<ServiceContext>): void {
  federation
    .setFollowingDispatcher(FOLLOWING_PATH, async (fctx, identifier, cursor) => {
      const ctx = fctx.data;
      const owner = await collectionOwner(ctx, identifier);
      const window = windowOf(cursor);
      if (owner === null || window === null) return null;
      if (owner === "instance") return { items: [], nextCursor: null };
      const edges = await ctx.storage.follows.listFrom(owner.id, window);
      const { kept, nextCursor } = splitPage(edges, (e) => e.id);
      const accounts = await ctx.storage.accounts.getMany(kept.map((e) => e.targetId));
      const items = kept.flatMap((edge) => {
        const account = accounts.get(edge.targetId);
        return account && !account.suspended ? [new URL(account.uri)] : [];
      });
      return { items, nextCursor };
    })
    .setFirstCursor(firstCursorOf)
    .setCounter(async (fctx, identifier) => {
      const owner = await collectionOwner(fctx.data, identifier);
      if (owner === null) return null;
      return owner === "instance" ? 0 : fctx.data.storage.follows.countFrom(owner.id);
    });
}
