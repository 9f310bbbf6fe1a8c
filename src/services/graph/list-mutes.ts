// Accounts the viewer mutes, newest mute first. Lapsed timed mutes are left out; the page's
// cursors still cover them so paging walks past.

import type { Mute } from "../../domain/relations.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { type AccountPage, accountPage } from "./account-page.ts";
import { isMuteActive } from "./mute-expiry.ts";

export async function listMutes(
  ctx: ServiceContext,
  viewerId: string,
  page: IdPage,
): Promise<AccountPage<Mute>> {
  const edges = await ctx.storage.mutes.listFrom(viewerId, page);
  const now = ctx.clock.now();
  return accountPage(ctx, edges, "targetId", (mute) => isMuteActive(mute, now));
}
