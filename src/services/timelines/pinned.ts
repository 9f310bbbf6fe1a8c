// An account's pinned statuses, in pin order (newest pin first), for the profile's `pinned=true`
// listing. Pins are few (Mastodon allows five), so they are read whole; the id window and the
// profile filters then apply to the pinned statuses' own ids, as Mastodon pages them.

import { compareIds } from "../../domain/ids.ts";
import type { Status } from "../../domain/status.ts";
import type { IdPage, StatusFilter } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import type { ResolvedEntry } from "./resolve-entries.ts";

/** Reads at most this many pins of one account (far above any sane pin limit). */
const MAX_PINS = 200;

function matches(status: Status, filter: StatusFilter): boolean {
  if (status.deleted) return false;
  if (filter.visibilities && !filter.visibilities.includes(status.visibility)) return false;
  if (filter.onlyMedia && status.mediaIds.length === 0) return false;
  if (filter.excludeReblogs && status.reblogOfId !== null) return false;
  if (
    filter.excludeReplies &&
    status.inReplyToId !== null &&
    status.inReplyToAccountId !== status.accountId
  ) {
    return false;
  }
  if (filter.tagged !== undefined) {
    const wanted = filter.tagged.toLowerCase();
    if (!status.tags.some((t) => t.toLowerCase() === wanted)) return false;
  }
  return true;
}

function inWindow(id: string, page: IdPage): boolean {
  if (page.maxId !== undefined && compareIds(id, page.maxId) >= 0) return false;
  const lower = page.minId ?? page.sinceId;
  if (lower !== undefined && compareIds(id, lower) <= 0) return false;
  return true;
}

export async function accountPins(
  ctx: ServiceContext,
  accountId: string,
  filter: StatusFilter,
  page: IdPage,
  keep: (statuses: readonly Status[]) => Promise<ResolvedEntry[]>,
): Promise<ResolvedEntry[]> {
  const pins = await ctx.storage.pins.listFrom(accountId, { limit: MAX_PINS });
  const statuses = await ctx.storage.statuses.getMany(pins.map((p) => p.targetId));
  const candidates = pins.flatMap((pin) => {
    const status = statuses.get(pin.targetId);
    // A pin is the author's own status; anything else is a stale edge.
    return status &&
      status.accountId === accountId &&
      matches(status, filter) &&
      inWindow(status.id, page)
      ? [status]
      : [];
  });
  const kept = await keep(candidates);
  return kept.slice(0, page.limit);
}
