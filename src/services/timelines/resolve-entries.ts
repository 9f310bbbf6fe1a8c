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
    statuses,
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
    new Map(statuses.map((s) => [s.id, s])),
  );
}

/**
 * `read`: the statuses already in hand. An original among them (a home page often holds a post
 * and its boost) is not read again.
 */
async function attachOriginals(
  ctx: ServiceContext,
  items: readonly { entry: TimelineEntry; status: Status }[],
  read: ReadonlyMap<string, Status>,
): Promise<ResolvedEntry[]> {
  const missing = [
    ...new Set(
      items.flatMap(({ status }) =>
        status.reblogOfId && !read.has(status.reblogOfId) ? [status.reblogOfId] : [],
      ),
    ),
  ];
  const fetched = missing.length > 0 ? await ctx.storage.statuses.getMany(missing) : new Map();
  const originals = new Map([...read, ...fetched]);
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
