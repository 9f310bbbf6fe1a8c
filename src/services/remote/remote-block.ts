// Blocks that remote actors make against local accounts (Block, Undo Block). The block edge
// ends follows both ways, as a local block does; the Block activity id is kept on the edge.

import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";
import { blockAccount } from "../graph/block.ts";
import { unblockAccount } from "../graph/unblock.ts";

export async function receiveBlock(
  ctx: ServiceContext,
  actor: Account,
  target: Account,
  uri: string | null,
): Promise<void> {
  await blockAccount(ctx, actor.id, target.id);
  const block = await ctx.storage.blocks.get(actor.id, target.id);
  if (block && uri !== null && block.uri !== uri) await ctx.storage.blocks.put({ ...block, uri });
}

export async function undoRemoteBlock(
  ctx: ServiceContext,
  actor: Account,
  target: Account,
): Promise<void> {
  await unblockAccount(ctx, actor.id, target.id);
}
