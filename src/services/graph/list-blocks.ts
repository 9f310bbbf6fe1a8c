// Accounts the viewer blocks, newest block first.

import type { Block } from "../../domain/relations.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { type AccountPage, accountPage } from "./account-page.ts";

export async function listBlocks(
  ctx: ServiceContext,
  viewerId: string,
  page: IdPage,
): Promise<AccountPage<Block>> {
  const edges = await ctx.storage.blocks.listFrom(viewerId, page);
  return accountPage(ctx, edges, "targetId");
}
