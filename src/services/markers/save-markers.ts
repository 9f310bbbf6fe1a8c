// Saves reading positions with optimistic concurrency, as Mastodon's lock_version does: the
// request reads the markers it is about to change, then, holding the per-(account, timeline)
// locks, checks that nobody changed them in between and writes them all. A write based on a
// stale version is refused with 409 rather than silently overwriting (or being overwritten by)
// the concurrent one; the client retries. The locks make the check and the write one step
// across every process on the storage, so two writers can never both pass the check.

import { conflict } from "../../domain/errors.ts";
import type { Marker, MarkerTimeline } from "../../domain/marker.ts";
import type { ServiceContext } from "../context.ts";
import { MARKER_TIMELINES } from "./timelines.ts";

export interface MarkerUpdate {
  timeline: MarkerTimeline;
  lastReadId: string;
}

export const MARKER_CONFLICT_MESSAGE = "Conflict during update, please try again";

const lockKey = (accountId: string, timeline: MarkerTimeline) => `marker:${accountId}:${timeline}`;

/** Holds the locks of every key, always taken in the same order so two requests cannot deadlock. */
function withKeyLocks<T>(
  ctx: ServiceContext,
  keys: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  const [first, ...rest] = keys;
  if (first === undefined) return work();
  return ctx.storage.coordination.withLock(first, () => withKeyLocks(ctx, rest, work));
}

/**
 * Applies the updates (at most one per timeline; a later duplicate wins) and answers the
 * resulting markers in the order given. An unchanged position keeps its version, as a record
 * saved without changes keeps its lock_version in Mastodon.
 */
export async function saveMarkers(
  ctx: ServiceContext,
  accountId: string,
  updates: readonly MarkerUpdate[],
): Promise<Marker[]> {
  const byTimeline = new Map<MarkerTimeline, string>();
  for (const u of updates) byTimeline.set(u.timeline, u.lastReadId);
  const timelines = MARKER_TIMELINES.filter((t) => byTimeline.has(t));
  if (timelines.length === 0) return [];

  // The versions this request bases its write on.
  const seen = await Promise.all(timelines.map((t) => ctx.storage.markers.get(accountId, t)));

  const saved = await withKeyLocks(
    ctx,
    timelines.map((t) => lockKey(accountId, t)),
    async () => {
      const current = await Promise.all(
        timelines.map((t) => ctx.storage.markers.get(accountId, t)),
      );
      current.forEach((marker, i) => {
        if (marker?.version !== seen[i]?.version) throw conflict(MARKER_CONFLICT_MESSAGE);
      });
      const now = ctx.clock.now().toISOString();
      const next = timelines.map((timeline, i): { marker: Marker; changed: boolean } => {
        const lastReadId = byTimeline.get(timeline) as string;
        const before = current[i];
        if (before && before.lastReadId === lastReadId) return { marker: before, changed: false };
        return {
          marker: {
            accountId,
            timeline,
            lastReadId,
            version: before ? before.version + 1 : 0,
            updatedAt: now,
          },
          changed: true,
        };
      });
      for (const { marker, changed } of next) if (changed) await ctx.storage.markers.put(marker);
      return new Map(next.map(({ marker }) => [marker.timeline, marker]));
    },
  );
  // Answer in the order the client named the timelines.
  return [...byTimeline.keys()].map((t) => saved.get(t) as Marker);
}
