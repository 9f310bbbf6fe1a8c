// Unblock an account. Follows that the block ended are not restored, as in Mastodon.

import type { ServiceContext } from "../context.ts";
import { publishIf } from "../events.ts";
import { requireAccount } from "./target-account.ts";

export async function unblockAccount(
  ctx: ServiceContext,
  viewerId: string,
  targetId: string,
): Promise<void> {
  const target = await requireAccount(ctx, targetId);
  const block = await ctx.storage.blocks.get(viewerId, target.id);
  if (!block) return;
  // Recorded before the block goes (ADR 0013): a crash after it still sends the Undo.
  await publishIf(ctx.events, { type: "account.unblocked", block }, () =>
    ctx.storage.blocks.delete(viewerId, target.id),
  );
}
