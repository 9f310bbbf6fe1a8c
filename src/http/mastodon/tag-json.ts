// Tag and FeaturedTag answers: views from views/tag-view.ts, serialised.

import type { Account } from "../../domain/account.ts";
import type { FeaturedTag } from "../../domain/relations.ts";
import {
  type FeaturedTagJson,
  serializeFeaturedTag,
} from "../../serialization/mastodon/featured-tag.ts";
import { serializeTagEntity, type TagEntityJson } from "../../serialization/mastodon/tag.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { TagName } from "../../services/tags/tag-name.ts";
import { loadFeaturedTagViews, loadTagViews } from "../../views/tag-view.ts";

export async function renderTags(
  ctx: ServiceContext,
  viewerId: string | null,
  names: readonly TagName[],
): Promise<TagEntityJson[]> {
  const views = await loadTagViews(ctx, viewerId, names);
  return views.map((view) => serializeTagEntity(view, ctx.settings.publicUrl));
}

export async function renderTag(
  ctx: ServiceContext,
  viewerId: string | null,
  name: TagName,
): Promise<TagEntityJson> {
  const [json] = await renderTags(ctx, viewerId, [name]);
  return json as TagEntityJson;
}

export async function renderFeaturedTags(
  ctx: ServiceContext,
  owner: Account,
  tags: readonly FeaturedTag[],
): Promise<FeaturedTagJson[]> {
  const views = await loadFeaturedTagViews(ctx, owner, tags);
  return views.map((view) => serializeFeaturedTag(view, ctx.settings.publicUrl));
}
