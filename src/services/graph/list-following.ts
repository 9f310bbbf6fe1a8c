// Whom an account follows, newest follow first. Public, like the followers list.

import type { Follow } from "../../domain/relations.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { type AccountPage, accountPage } from "./account-page.ts";
import { requireAccount } from "./target-account.ts";

export async function listFollowing(
  ctx: ServiceContext,
  accountId: string,
  page: IdPage,
): Promise<AccountPage<Follow>> {
  const account = await requireAccount(ctx, accountId);
  // A suspended account's graph is not shown (Mastodon's `hide_results?`: unavailable).
  if (account.suspended) return accountPage(ctx, [], "targetId");
  const edges = await ctx.storage.follows.listFrom(account.id, page);
  return accountPage(ctx, edges, "targetId");
}
