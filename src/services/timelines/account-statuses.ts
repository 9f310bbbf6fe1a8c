// The statuses of one account (its profile), as Mastodon's AccountStatusesFilter decides:
// - without a token: public and unlisted only;
// - the author: everything, direct messages included;
// - a viewer the author blocks: nothing (an empty list, not an error);
// - anyone else: public and unlisted, private ones too when following, and any the viewer is
//   mentioned in; boosts of statuses by accounts the viewer has shut out are left out.
// `pinned` lists the pinned statuses instead, newest pin first. Unknown accounts answer 404; a
// suspended one has no statuses to show (an empty list, as Mastodon's `unavailable?` check).

import { notFound } from "../../domain/errors.ts";
import type { Status } from "../../domain/status.ts";
import type { IdPage, StatusFilter } from "../../storage/ports.ts";
import { shownAccount } from "../accounts/listed-account.ts";
import type { ServiceContext } from "../context.ts";
import { fillPage } from "../fill-page.ts";
import { withoutHidden } from "../filters/hidden.ts";
import { loadExclusions } from "./exclusions.ts";
import { accountPins } from "./pinned.ts";
import { keepVisible, lineUp, type ResolvedEntry, resolveStatuses } from "./resolve-entries.ts";

export interface AccountStatusesOptions {
  pinned?: boolean;
  onlyMedia?: boolean;
  excludeReplies?: boolean;
  excludeReblogs?: boolean;
  /** Only statuses with this hashtag (without `#`). */
  tagged?: string;
}

export async function accountStatuses(
  ctx: ServiceContext,
  viewerId: string | null,
  accountId: string,
  options: AccountStatusesOptions,
  page: IdPage,
): Promise<ResolvedEntry[]> {
  const account = await shownAccount(ctx, await ctx.storage.accounts.get(accountId));
  if (!account) throw notFound();
  if (account.suspended) return [];
  const isAuthor = viewerId === accountId;
  if (viewerId !== null && !isAuthor) {
    // Through the joined reads, which a database answers from its memo of edges (ADR 0041).
    const [blockedBy] = await ctx.storage.joined.edges(viewerId, [
      { kind: "blocks", direction: "to", ids: [accountId] },
    ]);
    if (blockedBy.has(accountId)) return [];
  }

  const tagged = options.tagged?.trim().replace(/^#/, "");
  const filter: StatusFilter = {
    ...(options.onlyMedia ? { onlyMedia: true } : {}),
    ...(options.excludeReplies ? { excludeReplies: true } : {}),
    ...(options.excludeReblogs ? { excludeReblogs: true } : {}),
    ...(tagged ? { tagged } : {}),
    // Anonymous viewers can be narrowed in the store; signed-in ones may also see private and
    // direct statuses that mention them, which only the per-status rule can tell.
    ...(viewerId === null ? { visibilities: ["public", "unlisted"] as const } : {}),
  };

  const keep = (batch: readonly Status[]) => keepForViewer(ctx, viewerId, batch);
  if (options.pinned) return accountPins(ctx, accountId, filter, page, keep);
  const filled = await fillPage(page, {
    read: (window) => ctx.storage.statuses.listByAccount(accountId, window, filter),
    idOf: (status) => status.id,
    keep: async (batch) =>
      lineUp(
        batch.map((s) => s.id),
        await keep(batch),
      ),
  });
  return filled.items;
}

async function keepForViewer(
  ctx: ServiceContext,
  viewerId: string | null,
  batch: readonly Status[],
): Promise<ResolvedEntry[]> {
  const resolved = await resolveStatuses(ctx, batch);
  const originalAuthors = resolved.flatMap((i) => (i.original ? [i.original.accountId] : []));
  const exclusions = await loadExclusions(ctx, viewerId, originalAuthors);
  const allowed = resolved.filter(
    (i) => i.original === null || !exclusions.excludes(i.original.accountId),
  );
  return withoutHidden(ctx, viewerId, "account", await keepVisible(ctx, viewerId, allowed));
}
