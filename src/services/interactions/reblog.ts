// Boosting: the reblog is a status of its own (text empty, reblogOfId set) that timelines and
// the author's profile carry. Boosting a boost boosts the original; boosting twice answers the
// boost made the first time.

import type { Visibility } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import { canReblog } from "../../domain/visibility.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus, visibleStatuses } from "../statuses/visibility.ts";
import { storeReblog } from "./reblog-record.ts";
import { blocksAuthor, notAllowed, originalOf } from "./target.ts";

export type ReblogVisibility = Extract<Visibility, "public" | "unlisted" | "private">;

export interface ReblogInput {
  accountId: string;
  statusId: string;
  /** Requested visibility of the boost; the actor's default posting visibility when absent. */
  visibility?: ReblogVisibility | undefined;
}

/** Returns the reblog status (new or existing). */
export async function reblogStatus(ctx: ServiceContext, input: ReblogInput): Promise<Status> {
  const { accountId } = input;
  const requested = await loadVisibleStatus(ctx, accountId, input.statusId);
  const original = await originalOf(ctx, requested);
  // The original must itself be visible and boostable (Mastodon's StatusPolicy#reblog?).
  const [visible] = await visibleStatuses(ctx, accountId, [original]);
  if (!visible || !canReblog(original, accountId)) throw notAllowed();
  if (await blocksAuthor(ctx, accountId, original.accountId)) throw notAllowed();

  return ctx.storage.coordination.withLock(`reblog:${accountId}:${original.id}`, async () => {
    const existing = await ctx.storage.statuses.findReblog(accountId, original.id);
    if (existing) return existing;
    const account = await ctx.storage.accounts.get(accountId);
    if (!account) throw notAllowed();
    const visibility = await reblogVisibility(ctx, accountId, original, input.visibility);
    const id = ctx.ids.next();
    // Mastodon gives a boost the id of its Announce activity as both uri and url.
    const activityUri = `${account.uri}/statuses/${id}/activity`;
    return storeReblog(ctx, original, {
      id,
      accountId,
      uri: activityUri,
      visibility,
      local: account.domain === null,
      createdAt: ctx.clock.now().toISOString(),
    });
  });
}

async function reblogVisibility(
  ctx: ServiceContext,
  accountId: string,
  original: Status,
  requested: ReblogVisibility | undefined,
): Promise<Visibility> {
  // A boost of one's own followers-only post stays followers-only, whatever was asked.
  if (original.visibility === "private") return "private";
  if (requested) return requested;
  const preferred = (await ctx.storage.users.get(accountId))?.defaultVisibility;
  // A boost cannot be direct; an account that posts direct by default boosts publicly.
  return preferred === undefined || preferred === "direct" ? "public" : preferred;
}
