// What a featured tag shows beside its name (Mastodon's FeaturedTag statuses_count and
// last_status_at): the owner's own public and unlisted statuses carrying the tag. Mastodon keeps
// them as counters updated on every post; Wren counts them when asked, from the account's
// statuses (a featured tag list is at most ten names of one account).

import type { ServiceContext } from "../context.ts";

export interface FeaturedTagFacts {
  statusesCount: number;
  /** When the newest such status was posted, or null without one. */
  lastStatusAt: string | null;
}

const PAGE = 400;

export async function featuredTagFacts(
  ctx: ServiceContext,
  accountId: string,
  name: string,
): Promise<FeaturedTagFacts> {
  let statusesCount = 0;
  let lastStatusAt: string | null = null;
  let maxId: string | undefined;
  for (;;) {
    const statuses = await ctx.storage.statuses.listByAccount(
      accountId,
      { limit: PAGE, maxId },
      { tagged: name, visibilities: ["public", "unlisted"], excludeReblogs: true },
    );
    lastStatusAt ??= statuses[0]?.createdAt ?? null;
    statusesCount += statuses.length;
    if (statuses.length < PAGE) break;
    maxId = statuses[statuses.length - 1]?.id;
  }
  return { statusesCount, lastStatusAt };
}
