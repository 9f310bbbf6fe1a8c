// Unmute an account; answering for an account that was not muted is not an error.

import type { ServiceContext } from "../context.ts";
import { requireAccount } from "./target-account.ts";

export async function unmuteAccount(
  ctx: ServiceContext,
  viewerId: string,
  targetId: string,
): Promise<void> {
  const target = await requireAccount(ctx, targetId);
  await ctx.storage.mutes.delete(viewerId, target.id);
}
