// Lists of accounts reached through edges (followers, blocks, mutes…) are paged by the edge id,
// not the account id, as Mastodon pages them. A page pairs each edge with its account and keeps
// the edge ids of both ends for the Link header, even when an account has vanished.

import type { Account } from "../../domain/account.ts";
import type { Edge } from "../../domain/relations.ts";
import type { ServiceContext } from "../context.ts";

export interface AccountPage<E extends Edge> {
  items: { edge: E; account: Account }[];
  /** Id of the newest edge read (the `prev` cursor), undefined for an empty page. */
  newestId: string | undefined;
  /** Id of the oldest edge read (the `next` cursor). */
  oldestId: string | undefined;
}

/** Pairs newest-first edges with the accounts `side` names, dropping edges to missing ones. */
export async function accountPage<E extends Edge>(
  ctx: ServiceContext,
  edges: readonly E[],
  side: "accountId" | "targetId",
  keep: (edge: E) => boolean = () => true,
): Promise<AccountPage<E>> {
  const accounts = await ctx.storage.accounts.getMany(edges.map((e) => e[side]));
  const items: AccountPage<E>["items"] = [];
  for (const edge of edges) {
    const account = accounts.get(edge[side]);
    if (account && keep(edge)) items.push({ edge, account });
  }
  return { items, newestId: edges[0]?.id, oldestId: edges.at(-1)?.id };
}
