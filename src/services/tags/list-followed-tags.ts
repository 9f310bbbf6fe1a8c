// The hashtags an account follows, newest follow first, paged by the follow's own id (the Link
// header carries those ids, as Mastodon's followed_tags does).

import type { TagFollow } from "../../domain/relations.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";

export interface FollowedTagsPage {
  follows: TagFollow[];
  newestId: string | undefined;
  oldestId: string | undefined;
}

export async function listFollowedTags(
  ctx: ServiceContext,
  accountId: string,
  page: IdPage,
): Promise<FollowedTagsPage> {
  const follows = await ctx.storage.tagFollows.listFrom(accountId, page);
  return { follows, newestId: follows[0]?.id, oldestId: follows[follows.length - 1]?.id };
}
