// What the retention sweep keeps among old remote statuses: those someone here interacted with.
// Mastodon's content retention (Vacuum::StatusesVacuum) removes every old remote status; its
// `tootctl statuses remove` keeps the ones local accounts reached, and that is the rule here (the
// statuses of followed accounts are not kept: the point is bounding a home timeline's store):
// - lasting reasons: mentions a local account (direct messages, hence conversations, included),
//   favourited, bookmarked or pinned by one, a local account voted in its poll, a notification
//   is about it (followed accounts' posts, edits of boosted statuses), or it is a boost of a
//   local status;
// - links: any reply or boost still stored (a local reply or boost, or a newer remote one), so
//   a thread or boost never loses its parent or original; any accepted quote still stored, so a
//   quote never shows its post as deleted. A link to a status the sweep removes goes with it:
//   the sweep asks again after each round of removals.

import type { Edge } from "../../domain/relations.ts";
import type { Status } from "../../domain/status.ts";
import type { EdgeStore } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";

/**
 * The targets among `targetIds` that any of the local accounts has an edge to. Asked from the
 * smaller side: per account (a single-user instance: one query a page) or per target.
 */
async function withLocalEdge<E extends Edge>(
  store: EdgeStore<E>,
  localIds: readonly string[],
  targetIds: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  if (targetIds.length === 0 || localIds.length === 0) return found;
  if (localIds.length <= targetIds.length) {
    for (const accountId of localIds) {
      for (const targetId of (await store.findFrom(accountId, targetIds)).keys()) {
        found.add(targetId);
      }
    }
  } else {
    for (const targetId of targetIds) {
      if ((await store.findTo(targetId, localIds)).size > 0) found.add(targetId);
    }
  }
  return found;
}

/** The statuses of `page` kept for a lasting reason (see the top of this file). */
export async function lastingKeeps(
  ctx: ServiceContext,
  page: readonly Status[],
  localIds: readonly string[],
): Promise<Set<string>> {
  const { storage } = ctx;
  const ids = page.map((s) => s.id);
  const local = new Set(localIds);
  const keep = new Set<string>();
  for (const s of page) if (s.mentionIds.some((id) => local.has(id))) keep.add(s.id);

  const originalIds = [...new Set(page.flatMap((s) => s.reblogOfId ?? []))];
  const originals = await storage.statuses.getMany(originalIds);
  for (const s of page) {
    if (s.reblogOfId !== null && originals.get(s.reblogOfId)?.local) keep.add(s.id);
  }

  const marked = await Promise.all([
    withLocalEdge(storage.favourites, localIds, ids),
    withLocalEdge(storage.bookmarks, localIds, ids),
    withLocalEdge(storage.pins, localIds, ids),
    storage.notifications.findStatusIds(ids),
  ]);
  for (const set of marked) for (const id of set) keep.add(id);

  const pollOf = new Map(page.flatMap((s) => (s.pollId === null ? [] : [[s.pollId, s.id]])));
  for (const pollId of await withLocalEdge(storage.pollVotes, localIds, [...pollOf.keys()])) {
    keep.add(pollOf.get(pollId) as string);
  }
  return keep;
}

/**
 * The ids among `ids` that still have a stored reply or boost (deleted ones do not count), or an
 * accepted quote still stored.
 */
export async function linkedKeeps(
  ctx: ServiceContext,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const [counts, quotes] = await Promise.all([
    ctx.storage.statuses.interactionCounts(ids),
    ctx.storage.quotes.countToMany(ids),
  ]);
  return new Set(
    ids.filter((id) => {
      const c = counts.get(id);
      return (c !== undefined && (c.replies > 0 || c.reblogs > 0)) || (quotes.get(id) ?? 0) > 0;
    }),
  );
}
