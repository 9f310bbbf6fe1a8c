// Hashtags featured on one's profile (Mastodon's FeaturedTag): at most ten per local account,
// each name once (compared normalised). A change is announced like a profile edit (an
// `account.updated` event, so peers receive the actor's Update and read its featuredTags
// collection again, as Mastodon does on every actor update).

import type { Account } from "../../domain/account.ts";
import { notFound, unprocessable } from "../../domain/errors.ts";
import type { FeaturedTag } from "../../domain/relations.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { parseTagName, type TagName } from "./tag-name.ts";

/** Mastodon's FeaturedTag::LIMIT. */
export const MAX_FEATURED_TAGS = 10;

/** Far above the limit: remote accounts may list more than ten (Mastodon keeps ten of them). */
const MAX_LISTED = 100;

export async function listFeaturedTags(
  ctx: ServiceContext,
  accountId: string,
): Promise<FeaturedTag[]> {
  return ctx.storage.featuredTags.listFrom(accountId, { limit: MAX_LISTED });
}

async function loadOwner(ctx: ServiceContext, accountId: string): Promise<Account> {
  const account = await ctx.storage.accounts.get(accountId);
  if (!account) throw notFound();
  return account;
}

/** Writes the change and records the profile update peers are sent. */
async function announced(
  ctx: ServiceContext,
  owner: Account,
  write: () => Promise<void>,
): Promise<void> {
  const account = { ...owner, updatedAt: ctx.clock.now().toISOString() };
  await publishAround(ctx.events, { type: "account.updated", account }, async () => {
    await write();
    await ctx.storage.accounts.put(account);
  });
}

/**
 * Features a tag. `existing: "keep"` (POST /tags/:name/feature) answers the feature already
 * there; `"refuse"` (POST /featured_tags) refuses a second one, as Mastodon's validation does.
 */
export async function featureTag(
  ctx: ServiceContext,
  accountId: string,
  raw: string,
  existing: "keep" | "refuse",
): Promise<{ tag: FeaturedTag; name: TagName }> {
  const name = parseTagName(raw);
  if (name === null) throw unprocessable("Validation failed: Tag is invalid");
  return ctx.storage.coordination.withLock(`featured-tags:${accountId}`, async () => {
    const found = await ctx.storage.featuredTags.get(accountId, name.normalized);
    if (found) {
      if (existing === "keep") return { tag: found, name };
      throw unprocessable("Validation failed: Name has already been taken");
    }
    if ((await ctx.storage.featuredTags.countFrom(accountId)) >= MAX_FEATURED_TAGS) {
      throw unprocessable(
        "Validation failed: You have already featured the maximum number of hashtags",
      );
    }
    const owner = await loadOwner(ctx, accountId);
    const tag: FeaturedTag = {
      id: ctx.ids.next(),
      accountId,
      targetId: name.normalized,
      name: name.display,
      createdAt: ctx.clock.now().toISOString(),
    };
    await announced(ctx, owner, () => ctx.storage.featuredTags.put(tag));
    return { tag, name };
  });
}

async function removeFeature(ctx: ServiceContext, tag: FeaturedTag): Promise<void> {
  const owner = await loadOwner(ctx, tag.accountId);
  await announced(ctx, owner, async () => {
    await ctx.storage.featuredTags.delete(tag.accountId, tag.targetId);
  });
}

/** DELETE /featured_tags/:id: 404 unless the id is one of the account's own. */
export async function unfeatureTagById(
  ctx: ServiceContext,
  accountId: string,
  id: string,
): Promise<void> {
  await ctx.storage.coordination.withLock(`featured-tags:${accountId}`, async () => {
    const tags = await listFeaturedTags(ctx, accountId);
    const tag = tags.find((t) => t.id === id);
    if (!tag) throw notFound();
    await removeFeature(ctx, tag);
  });
}

/** POST /tags/:name/unfeature: nothing to do when the tag is not featured. */
export async function unfeatureTagByName(
  ctx: ServiceContext,
  accountId: string,
  raw: string,
): Promise<TagName> {
  const name = parseTagName(raw);
  if (name === null) throw notFound();
  await ctx.storage.coordination.withLock(`featured-tags:${accountId}`, async () => {
    const tag = await ctx.storage.featuredTags.get(accountId, name.normalized);
    if (tag) await removeFeature(ctx, tag);
  });
  return name;
}
