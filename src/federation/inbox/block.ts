// Block: a remote actor blocks a local account. The edge (with the Block's id) ends follows
// both ways; Undo Block is in undo.ts.

import type { Block } from "@fedify/vocab";
import type { Account } from "../../domain/account.ts";
import { receiveBlock } from "../../services/remote/remote-block.ts";
import { type InboxCtx, localAccountOf } from "./sender.ts";

export async function onBlock(fctx: InboxCtx, block: Block, sender: Account): Promise<void> {
  const target = await localAccountOf(fctx.data, block.objectId);
  if (!target) return;
  await receiveBlock(fctx.data, sender, target, block.id?.href ?? null);
}
