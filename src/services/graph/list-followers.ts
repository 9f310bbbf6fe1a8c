// Who follows an account, newest follow first. Public; nothing is hidden yet (Mastodon's
// "hide_collections" is not offered).

import type { Follow } from "../../domain/relations.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { type AccountPage, accountPage } from "./account-page.ts";
import { requireAccount } from "./target-account.ts";

export async function listFollowers(
  ctx: ServiceContext,
  accountId: string,
  page: IdPage,
): Promise<AccountPage<Follow>> {
  const account = await requireAccount(ctx, accountId);
  // A suspended account's graph is not shown (Mastodon's `hide_results?`: unavailable).
  if (account.suspended) return accountPage(ctx, [], "accountId");
  const edges = await ctx.storage.follows.listTo(account.id, page);
  return accountPage(ctx, edges, "accountId");
}
