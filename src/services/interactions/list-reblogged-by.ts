// Who boosted a status: the authors of its public and unlisted boosts (followers-only boosts
// stay private), newest boost first, paged by the boost's id.

import { isOpenToAll } from "../../domain/visibility.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus } from "../statuses/visibility.ts";
import { type AccountPage, accountPage } from "./account-page.ts";

export async function listRebloggedBy(
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
    (window) => ctx.storage.statuses.listReblogs(status.id, window),
    (reblog) => (isOpenToAll(reblog.visibility) ? reblog.accountId : null),
  );
}
