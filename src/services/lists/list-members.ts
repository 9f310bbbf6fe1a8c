// The accounts of a list (Mastodon: GET /api/v1/lists/:id/accounts), newest member first, paged
// by membership; `all` reads every member in one answer (Mastodon's limit=0). Suspended accounts
// are left out, as Mastodon leaves them out.

import type { ListMember } from "../../domain/list.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { type AccountPage, accountPage } from "../graph/account-page.ts";
import { walkPages } from "../paging.ts";
import { ownList } from "./own-list.ts";

export async function listMemberAccounts(
  ctx: ServiceContext,
  ownerId: string,
  listId: string,
  page: IdPage | "all",
): Promise<AccountPage<ListMember>> {
  const list = await ownList(ctx, ownerId, listId);
  const { listMembers } = ctx.storage;
  let edges: ListMember[];
  if (page === "all") {
    edges = [];
    for await (const edge of walkPages((p) => listMembers.listFrom(list.id, p))) edges.push(edge);
  } else {
    edges = await listMembers.listFrom(list.id, page);
  }
  const found = await accountPage(ctx, edges, "targetId");
  return { ...found, items: found.items.filter((item) => !item.account.suspended) };
}
