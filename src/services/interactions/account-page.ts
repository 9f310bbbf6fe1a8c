// A page of accounts drawn from a list of items that point at them (boosts, favourites), without
// the accounts the viewer does not want to see.

import type { Account } from "../../domain/account.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { fillPage } from "../fill-page.ts";
import { excludedAccounts } from "./excluded-accounts.ts";

export interface AccountPage {
  accounts: Account[];
  /** Paging ids (boost or favourite ids) bounding the page, for Link headers. */
  newestId: string | undefined;
  oldestId: string | undefined;
}

/**
 * `fetch` answers a window of the items, newest first; `accountOf` names the account an item
 * shows, or null for an item that is not listed (it still counts for paging).
 */
export async function accountPage<E extends { id: string }>(
  ctx: ServiceContext,
  viewerId: string | null,
  page: IdPage,
  fetch: (page: IdPage) => Promise<E[]>,
  accountOf: (item: E) => string | null,
): Promise<AccountPage> {
  const filled = await fillPage(page, {
    read: fetch,
    idOf: (item) => item.id,
    async keep(items) {
      const ids = items.map(accountOf);
      const wanted = ids.filter((id): id is string => id !== null);
      const [accounts, excluded] = await Promise.all([
        ctx.storage.accounts.getMany(wanted),
        excludedAccounts(ctx, viewerId, wanted),
      ]);
      return ids.map((id) => (id === null || excluded.has(id) ? undefined : accounts.get(id)));
    },
  });
  return { accounts: filled.items, newestId: filled.newestId, oldestId: filled.oldestId };
}
