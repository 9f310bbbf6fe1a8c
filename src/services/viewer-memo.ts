// What a viewer's reads derive from their own records (whom they block and mute, the servers
// they block, their filters, whom they follow, their exclusive lists and followed tags), kept
// between requests. Every signed-in page asked the store for each of these again, though they
// change only when the viewer (or, for a few, someone about them) writes.
//
// Exact by the argument of views/status-shared-parts.ts: a kept value remembers
// Storage.versionOf(part.kinds), which every change of those kinds moves in the step that makes
// it visible (on PostgreSQL in every process, through the wren_changes notifications), so a value
// read while the version held one number is the store's answer as long as it holds it. Each part
// names the kinds it reads (ADR 0072): a viewer's follows stay kept across a favourite. A value
// read while the version moved may mix before and after: it is used once and not kept. What
// changes with the clock alone (a mute or filter lapsing) is kept as records and judged at use.
//
// Bounded: per kind of value, the most recently active viewers (VIEWERS), and no value larger
// than MAX_ITEMS ids or records (a viewer following thousands reads theirs each time, as before).

import { LruCache } from "../domain/lru-cache.ts";
import { perOwner } from "../domain/per-owner.ts";
import type { Storage } from "../storage/ports.ts";
import type { VersionKind } from "../storage/version-kinds.ts";
import type { ServiceContext } from "./context.ts";

/** One kind of value kept per viewer: how to read it and how many items it holds. */
export interface ViewerPart<T> {
  /** For tests and errors; each part object has its own cache. */
  readonly name: string;
  read(ctx: ServiceContext, viewerId: string): Promise<T>;
  /** Every kind of record `read` reads, and no fewer: writes of other kinds keep the value. */
  readonly kinds: readonly VersionKind[];
  /** How many ids or records the value holds (values above MAX_ITEMS are not kept). */
  size(value: T): number;
}

interface Kept {
  version: number;
  value: unknown;
}

const VIEWERS = 2_000;
export const MAX_ITEMS = 2_000;

const partsOf = perOwner<Storage, Map<ViewerPart<unknown>, LruCache<string, Kept>>>(
  () => new Map(),
);

function cacheOf(storage: Storage, part: ViewerPart<unknown>): LruCache<string, Kept> {
  const parts = partsOf(storage);
  let cache = parts.get(part);
  if (!cache) {
    cache = new LruCache(VIEWERS);
    parts.set(part, cache);
  }
  return cache;
}

/**
 * The viewer's value of `part`: the kept one while the storage is unchanged since it was read
 * (answered without a promise), else read now. Callers must not change the value.
 */
export function keptForViewer<T>(
  ctx: ServiceContext,
  part: ViewerPart<T>,
  viewerId: string,
): T | Promise<T> {
  const { storage } = ctx;
  const cache = cacheOf(storage, part as ViewerPart<unknown>);
  const version = storage.versionOf(part.kinds);
  const hit = cache.get(viewerId);
  if (hit !== undefined && hit.version === version) return hit.value as T;
  return part.read(ctx, viewerId).then((value) => {
    if (storage.versionOf(part.kinds) === version && part.size(value) <= MAX_ITEMS) {
      cache.set(viewerId, { version, value });
    } else if (hit !== undefined) {
      cache.delete(viewerId);
    }
    return value;
  });
}
