// Who favourited a status, newest favourite first, paged by the favourite's id.

import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";
import { type AccountPage, accountPage } from "./account-page.ts";

export async function listFavouritedBy(
  ctx: ServiceContext,
  viewerId: string | null,
  statusId: string,
  page: IdPage,
): Promise<AccountPage> {
  const status = await loadVisibleStatus(ctx, viewerId, statusId);
  return accountPage(
    ctx,
    viewerId,
    page,
    (window) => ctx.storage.favourites.listTo(status.id, window),
    (favourite) => favourite.accountId,
  );
}
