// The read side of hashtags: a tag with its week of use and, for a signed-in viewer, whether
// they follow and feature it (Mastodon's Tag entity, 4.4). Featured tags of a profile come with
// the counts of their owner's statuses. Built for a whole list at once.

import type { Account } from "../domain/account.ts";
import type { FeaturedTag } from "../domain/relations.ts";
import type { ServiceContext } from "../services/context.ts";
import { type FeaturedTagFacts, featuredTagFacts } from "../services/tags/featured-tag-facts.ts";
import { type TagDay, tagHistory } from "../services/tags/tag-history.ts";
import type { TagName } from "../services/tags/tag-name.ts";

export interface TagView {
  /** As the request or the first use spelt it. */
  name: string;
  normalized: string;
  history: TagDay[];
  /** Null without a viewer (the fields are then left out). */
  following: boolean | null;
  featuring: boolean | null;
}

export async function loadTagViews(
  ctx: ServiceContext,
  viewerId: string | null,
  names: readonly TagName[],
): Promise<TagView[]> {
  const keys = names.map((n) => n.normalized);
  const [histories, follows, features] = await Promise.all([
    Promise.all(keys.map((key) => tagHistory(ctx, key))),
    viewerId === null ? null : ctx.storage.tagFollows.findFrom(viewerId, keys),
    viewerId === null ? null : ctx.storage.featuredTags.findFrom(viewerId, keys),
  ]);
  return names.map((name, i) => ({
    name: name.display,
    normalized: name.normalized,
    history: histories[i] ?? [],
    following: follows === null ? null : follows.has(name.normalized),
    featuring: features === null ? null : features.has(name.normalized),
  }));
}

/** Tag names from stored (normalised) names, for lists that keep no other spelling. */
export function storedTagNames(names: readonly string[]): TagName[] {
  return names.map((name) => ({ display: name, normalized: name }));
}

export interface FeaturedTagView extends FeaturedTagFacts {
  tag: FeaturedTag;
  owner: Account;
}

export async function loadFeaturedTagViews(
  ctx: ServiceContext,
  owner: Account,
  tags: readonly FeaturedTag[],
): Promise<FeaturedTagView[]> {
  const facts = await Promise.all(tags.map((t) => featuredTagFacts(ctx, owner.id, t.targetId)));
  return tags.map((tag, i) => ({
    tag,
    owner,
    statusesCount: facts[i]?.statusesCount ?? 0,
    lastStatusAt: facts[i]?.lastStatusAt ?? null,
  }));
}
