// Following and unfollowing a hashtag (its public posts then reach the home timeline, see
// timelines/followed-tags.ts). Both are idempotent, as in Mastodon since 4.1; a name that cannot
// be a hashtag is not found.

import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { parseTagName, type TagName } from "./tag-name.ts";

export function requireTagName(raw: string): TagName {
  const name = parseTagName(raw);
  if (name === null) throw notFound();
  return name;
}

export async function followTag(
  ctx: ServiceContext,
  accountId: string,
  raw: string,
): Promise<TagName> {
  const name = requireTagName(raw);
  await ctx.storage.coordination.withLock(`tag-follow:${accountId}`, async () => {
    if (await ctx.storage.tagFollows.get(accountId, name.normalized)) return;
    await ctx.storage.tagFollows.put({
      id: ctx.ids.next(),
      accountId,
      targetId: name.normalized,
      createdAt: ctx.clock.now().toISOString(),
    });
  });
  return name;
}

export async function unfollowTag(
  ctx: ServiceContext,
  accountId: string,
  raw: string,
): Promise<TagName> {
  const name = requireTagName(raw);
  await ctx.storage.tagFollows.delete(accountId, name.normalized);
  return name;
}
