// The profile directory (GET /api/v1/directory): accounts, local and remote, that chose to be
// discoverable, most recently active or newest first, paged by offset as Mastodon pages it. A
// signed-in viewer does not see the accounts they shut out (discovery/shut-out.ts); with
// `local` only local accounts are listed, so their server blocks do not matter then.

import type { Account } from "../../domain/account.ts";
import { unlistedSignUpIds } from "../accounts/listed-account.ts";
import type { ServiceContext } from "../context.ts";
import { shutOutBy } from "./shut-out.ts";

export interface DirectoryParams {
  order: "active" | "new";
  local: boolean;
  offset: number;
  limit: number;
}

export async function profileDirectory(
  ctx: ServiceContext,
  viewerId: string | null,
  params: DirectoryParams,
): Promise<Account[]> {
  const [shutOut, unlisted] = await Promise.all([shutOutBy(ctx, viewerId), unlistedSignUpIds(ctx)]);
  return ctx.storage.accounts.directory({
    order: params.order,
    localOnly: params.local,
    offset: params.offset,
    limit: params.limit,
    // Sign-ups not yet approved or confirmed are nobody yet (Mastodon's directory skips them).
    excludeIds: [...shutOut.accountIds, ...unlisted],
    excludeDomains: params.local ? [] : [...shutOut.domains],
  });
}
