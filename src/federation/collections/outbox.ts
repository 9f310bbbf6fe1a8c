// The outbox: the Create and Announce activities of an account's public and unlisted statuses,
// newest first, paged by status id; totalItems counts all its statuses, as Mastodon's does.

import type { Federation } from "@fedify/fedify";
import type { ServiceContext } from "../../services/context.ts";
import { accountStatuses } from "../../services/timelines/account-statuses.ts";
import { loadResolvedViews } from "../../views/status-view.ts";
import { postActivitiesOf } from "../status-documents.ts";
import { collectionOwner, firstCursorOf, splitPage, windowOf } from "./paging.ts";

export const OUTBOX_PATH = "/users/{identifier}/outbox";

export function registerOutbox(federation: Federation<ServiceContext>): void {
  federation
    .setOutboxDispatcher(OUTBOX_PATH, async (fctx, identifier, cursor) => {
      const ctx = fctx.data;
      const owner = await collectionOwner(ctx, identifier);
      const window = windowOf(cursor);
      if (owner === null || window === null) return null;
      if (owner === "instance") return { items: [], nextCursor: null };
      // As an anonymous reader sees the profile: public and unlisted statuses and boosts.
      const read = await accountStatuses(ctx, null, owner.id, {}, window);
      const { kept, nextCursor } = splitPage(read, (item) => item.status.id);
      const views = await loadResolvedViews(ctx, kept, null);
      return { items: await postActivitiesOf(ctx, views), nextCursor };
    })
    .setFirstCursor(firstCursorOf)
    .setCounter(async (fctx, identifier) => {
      const owner = await collectionOwner(fctx.data, identifier);
      if (owner === null) return null;
      return owner === "instance" ? 0 : fctx.data.storage.statuses.countByAccount(owner.id);
    });
}
