// Turns a batch of timeline entries back into statuses (and, for reblogs, the boosted originals)
// so the timeline filters can look at them, with one batched read per kind. Entries whose status
// or original has vanished or was deleted are dropped here. The timelines hand these resolved
// entries on to hydration (views/status-view.ts, loadResolvedViews), so a page's statuses are
// read once per request, not again by whoever shows them.

import type { Status, TimelineEntry } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { visibleStatuses } from "../statuses/visibility.ts";

export interface ResolvedEntry {
  entry: TimelineEntry;
  status: Status;
  /** The boosted status when `status` is a reblog, else null. */
  original: Status | null;
}

function entryOf(status: Status): TimelineEntry {
  return { account_id: status.accountId, status_id: status.id };
}

export async function resolveEntries(
  ctx: ServiceContext,
  entries: readonly TimelineEntry[],
): Promise<ResolvedEntry[]> {
  const statuses = await ctx.storage.statuses.getMany(entries.map((e) => e.status_id));
  return attachOriginals(
    ctx,
    entries.flatMap((entry) => {
      const status = statuses.get(entry.status_id);
      return status && !status.deleted ? [{ entry, status }] : [];
    }),
  );
}

/** Same as resolveEntries for statuses already in hand. */
export async function resolveStatuses(
  ctx: ServiceContext,
  statuses: readonly Status[],
): Promise<ResolvedEntry[]> {
  return attachOriginals(
    ctx,
    statuses.filter((s) => !s.deleted).map((status) => ({ entry: entryOf(status), status })),
  );
}

async function attachOriginals(
  ctx: ServiceContext,
  items: readonly { entry: TimelineEntry; status: Status }[],
): Promise<ResolvedEntry[]> {
  const originalIds = items.flatMap(({ status }) => (status.reblogOfId ? [status.reblogOfId] : []));
  const originals =
    originalIds.length > 0 ? await ctx.storage.statuses.getMany(originalIds) : new Map();
  return items.flatMap(({ entry, status }) => {
    if (status.reblogOfId === null) return [{ entry, status, original: null }];
    const original = originals.get(status.reblogOfId);
    return original && !original.deleted ? [{ entry, status, original }] : [];
  });
}

/** The kept items lined up with the batch they came from (undefined where one was dropped). */
export function lineUp(
  batchIds: readonly string[],
  kept: readonly ResolvedEntry[],
): (ResolvedEntry | undefined)[] {
  const byId = new Map(kept.map((item) => [item.status.id, item]));
  return batchIds.map((id) => byId.get(id));
}

/** The entries the viewer may see: the status itself and, for a reblog, the original too. */
export async function keepVisible(
  ctx: ServiceContext,
  viewerId: string | null,
  items: readonly ResolvedEntry[],
): Promise<ResolvedEntry[]> {
  const all = items.flatMap((i) => (i.original ? [i.status, i.original] : [i.status]));
  const visible = new Set((await visibleStatuses(ctx, viewerId, all)).map((s) => s.id));
  return items.filter(
    (i) => visible.has(i.status.id) && (i.original === null || visible.has(i.original.id)),
  );
}
