// The featured collection (Mastodon's pinned statuses) as one OrderedCollection of Notes,
// newest pin first, and the featured tags collection (Hashtag objects, newest feature first).
// Only public and unlisted pins are shown: the collection is the same for every reader.

import type { Federation } from "@fedify/fedify";
import { toFeaturedHashtag } from "../../serialization/activitypub/featured-tags.ts";
import type { ServiceContext } from "../../services/context.ts";
import { listFeaturedTags } from "../../services/tags/featured-tags.ts";
import { accountStatuses } from "../../services/timelines/account-statuses.ts";
import { loadResolvedViews, type StatusView } from "../../views/status-view.ts";
import { noteOf } from "../status-documents.ts";
import { collectionOwner } from "./paging.ts";

export const FEATURED_PATH = "/users/{identifier}/collections/featured";
export const FEATURED_TAGS_PATH = "/users/{identifier}/collections/tags";

/** Far above Mastodon's limit of five pins. */
const MAX_FEATURED = 200;

/** The pinned statuses' views, or null when there is no such collection. */
async function featuredViews(
  ctx: ServiceContext,
  identifier: string,
): Promise<StatusView[] | null> {
  const owner = await collectionOwner(ctx, identifier);
  if (owner === null) return null;
  if (owner === "instance") return [];
  const pins = await accountStatuses(
    ctx,
    null,
    owner.id,
    { pinned: true },
    { limit: MAX_FEATURED },
  );
  return loadResolvedViews(
    ctx,
    pins.filter((pin) => pin.status.reblogOfId === null),
    null,
  );
}

export function registerFeatured(federation: Federation<ServiceContext>): void {
  federation
    .setFeaturedDispatcher(FEATURED_PATH, async (fctx, identifier) => {
      const views = await featuredViews(fctx.data, identifier);
      if (views === null) return null;
      return { items: await Promise.all(views.map((view) => noteOf(fctx.data, view))) };
    })
    // Pins are few: counting them reads the same handful of records again.
    .setCounter(
      async (fctx, identifier) => (await featuredViews(fctx.data, identifier))?.length ?? null,
    );

  federation
    .setFeaturedTagsDispatcher(FEATURED_TAGS_PATH, async (fctx, identifier) => {
      const owner = await collectionOwner(fctx.data, identifier);
      if (owner === null) return null;
      if (owner === "instance") return { items: [] };
      const tags = await listFeaturedTags(fctx.data, owner.id);
      const { publicUrl } = fctx.data.settings;
      return { items: tags.map((tag) => toFeaturedHashtag(tag, owner, publicUrl)) };
    })
    .setCounter(async (fctx, identifier) => {
      const owner = await collectionOwner(fctx.data, identifier);
      if (owner === null) return null;
      return owner === "instance" ? 0 : fctx.data.storage.featuredTags.countFrom(owner.id);
    });
}
