// For each requested account: the accounts the viewer follows that also follow it (Mastodon's
// FamiliarFollowersPresenter). Ids naming no account are skipped, as Mastodon does; the others
// keep request order, each list newest follow first.

import type { Account } from "../../domain/account.ts";
import { compareIds } from "../../domain/ids.ts";
import type { ServiceContext } from "../context.ts";

export interface FamiliarFollowers {
  accountId: string;
  accounts: Account[];
}

export async function familiarFollowers(
  ctx: ServiceContext,
  viewerId: string,
  accountIds: readonly string[],
): Promise<FamiliarFollowers[]> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return [];
  const { follows, accounts } = ctx.storage;
  const [targets, followed] = await Promise.all([
    accounts.getMany(ids),
    follows.allTargetsFrom(viewerId),
  ]);
  const present = ids.filter((id) => targets.has(id));
  const perTarget = await Promise.all(
    present.map(async (id) => {
      if (followed.length === 0) return [];
      const edges = await follows.findTo(id, followed);
      return [...edges.values()]
        .sort((a, b) => compareIds(b.id, a.id))
        .map((edge) => edge.accountId);
    }),
  );
  const followers = await accounts.getMany([...new Set(perTarget.flat())]);
  return present.map((accountId, i) => ({
    accountId,
    accounts: (perTarget[i] ?? []).flatMap((id) => {
      const account = followers.get(id);
      return account ? [account] : [];
    }),
  }));
}
