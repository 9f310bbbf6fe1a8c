// The followers collection: the ids of the accounts that follow, newest follow first, paged by
// follow id, with totalItems. The same dispatcher, called without a cursor, gives Fedify every
// follower as a delivery recipient (`sendActivity(…, "followers", …)`): remote followers carry
// the inboxes their actor documents named; local followers carry none, as nothing is delivered
// to our own server. With a `base-url` filter (FEP-8fcf), only followers on that origin.

import type { Federation } from "@fedify/fedify";
import type { Recipient } from "@fedify/vocab";
import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../../services/context.ts";
import { collectionOwner, firstCursorOf, splitPage, windowOf } from "./paging.ts";

export const FOLLOWERS_PATH = "/users/{identifier}/followers";

/** Enough for every follower of any one account in a single delivery pass. */
const ALL_FOLLOWERS = 1_000_000;

function recipientOf(account: Account): Recipient {
  const remote = account.remote;
  return {
    id: new URL(account.uri),
    inboxId: remote ? new URL(remote.inbox) : null,
    endpoints: remote?.sharedInbox ? { sharedInbox: new URL(remote.sharedInbox) } : null,
  };
}

export function registerFollowers(federation: Federation<ServiceContext>): void {
  federation
    .setFollowersDispatcher(FOLLOWERS_PATH, async (fctx, identifier, cursor, filter) => {
      const ctx = fctx.data;
      const owner = await collectionOwner(ctx, identifier);
      if (owner === null) return null;
      if (owner === "instance") return { items: [], nextCursor: null };
      const window = cursor === null ? { limit: ALL_FOLLOWERS } : windowOf(cursor);
      if (window === null) return null;
      const edges = await ctx.storage.follows.listTo(owner.id, window);
      const { kept, nextCursor } =
        cursor === null ? { kept: edges, nextCursor: null } : splitPage(edges, (e) => e.id);
      const accounts = await ctx.storage.accounts.getMany(kept.map((e) => e.accountId));
      const items = kept.flatMap((edge) => {
        const account = accounts.get(edge.accountId);
        if (!account || account.suspended) return [];
        if (filter && new URL(account.uri).origin !== filter.origin) return [];
        return [recipientOf(account)];
      });
      return { items, nextCursor };
    })
    .setFirstCursor(firstCursorOf)
    .setCounter(async (fctx, identifier) => {
      const owner = await collectionOwner(fctx.data, identifier);
      if (owner === null) return null;
      return owner === "instance" ? 0 : fctx.data.storage.follows.countTo(owner.id);
    });
}
