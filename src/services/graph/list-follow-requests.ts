// Accounts asking to follow the viewer, newest request first.

import type { FollowRequest } from "../../domain/relations.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { type AccountPage, accountPage } from "./account-page.ts";

export async function listFollowRequests(
  ctx: ServiceContext,
  viewerId: string,
  page: IdPage,
): Promise<AccountPage<FollowRequest>> {
  const edges = await ctx.storage.followRequests.listTo(viewerId, page);
  return accountPage(ctx, edges, "accountId");
}
