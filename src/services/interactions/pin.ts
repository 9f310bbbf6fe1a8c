// Pinning one's own status to the profile. Refusals carry Mastodon's validation messages, all
// that apply, in Mastodon's order; pinning a pinned status again changes nothing.

import { unprocessable } from "../../domain/errors.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";

/** Mastodon's limit of pinned statuses per local account. */
export const MAX_PINNED_STATUSES = 5;

/** Pins that still point at a live status (a deleted status no longer counts). */
async function livePinCount(ctx: ServiceContext, accountId: string): Promise<number> {
  const targets = await ctx.storage.pins.allTargetsFrom(accountId);
  if (targets.length === 0) return 0;
  const statuses = await ctx.storage.statuses.getMany(targets);
  return targets.filter((id) => {
    const status = statuses.get(id);
    return status !== undefined && !status.deleted;
  }).length;
}

export async function pinStatus(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
): Promise<Status> {
  const status = await loadVisibleStatus(ctx, accountId, statusId);
  // One lock per account: the limit is a count over all of its pins.
  await ctx.storage.coordination.withLock(`pin:${accountId}`, async () => {
    if (await ctx.storage.pins.get(accountId, status.id)) return;
    const problems: string[] = [];
    if (status.reblogOfId !== null) problems.push("A boost cannot be pinned");
    if (status.accountId !== accountId) problems.push("Someone else's post cannot be pinned");
    if (status.visibility === "direct") {
      problems.push("Posts that are only visible to mentioned users cannot be pinned");
    }
    if ((await livePinCount(ctx, accountId)) >= MAX_PINNED_STATUSES) {
      problems.push("You have already pinned the maximum number of posts");
    }
    if (problems.length > 0) throw unprocessable(`Validation failed: ${problems.join(", ")}`);
    await ctx.storage.pins.put({
      id: ctx.ids.next(),
      accountId,
      targetId: status.id,
      createdAt: ctx.clock.now().toISOString(),
    });
  });
  return status;
}
