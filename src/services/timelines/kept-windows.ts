// Timeline windows kept between writes: one window of a timeline's entries as the store lists it
// and its resolution (each entry's status and boosted original, and whatever of them the timeline
// shows to every viewer alike), kept per key and Storage.versionOf(WINDOW_KINDS). The public and hashtag
// timelines key a window by its filter and cursor (the same for every reader); home by the viewer
// too (its listing merges the viewer's followed accounts and tags). Between writes a page then
// starts from the kept window and does only the viewer's part (exclusions, visibility, filters),
// which is also what depends on the clock (a mute's or filter's end), so nothing kept here does.
// Exact as the other memos keyed by the version (views/status-shared-parts.ts): a window is kept
// only when the version did not move while it was read, and served only at that version; on
// PostgreSQL every process's version moves with another's write notification (ADRs 8, 45). The
// version is that of the kinds a window may read (ADR 0072), so a favourite or a marker keeps it.

import { LruCache } from "../../domain/lru-cache.ts";
import { perOwner } from "../../domain/per-owner.ts";
import type { TimelineEntry } from "../../domain/status.ts";
import type { IdPage, Storage } from "../../storage/ports.ts";
import { CONTENT_KINDS, type VersionKind } from "../../storage/version-kinds.ts";
import type { ServiceContext } from "../context.ts";
import type { ResolvedEntry } from "./resolve-entries.ts";

/**
 * Statuses (the listings), accounts (authors shown or not), relations (home's followed accounts
 * and tags), media (media-only listings) and kv (server blocks): every content kind but acts,
 * which no listing or resolution reads.
 */
const WINDOW_KINDS: readonly VersionKind[] = CONTENT_KINDS.filter((k) => k !== "acts");

interface KeptWindow {
  version: number;
  entries: TimelineEntry[];
  resolved: readonly ResolvedEntry[];
}

/** A window's key: what else selects its entries (`parts`), then its cursor. */
export function windowKey(parts: readonly unknown[], window: IdPage): string {
  return JSON.stringify([
    ...parts,
    window.limit,
    window.maxId ?? null,
    window.sinceId ?? null,
    window.minId ?? null,
  ]);
}

/** Each window's resolution, by the very entries array handed out (fillPage passes it on). */
const resolvedOf = new WeakMap<readonly TimelineEntry[], readonly ResolvedEntry[]>();

export interface WindowSource {
  /** The window's entries, as the store lists them. */
  list(): Promise<TimelineEntry[]>;
  /** What of them the timeline resolves for every viewer alike. */
  resolve(entries: readonly TimelineEntry[]): Promise<readonly ResolvedEntry[]>;
}

/**
 * A keeper of up to `limit` windows per storage: `read(ctx, key, source)` answers the window's
 * entries, kept or listed afresh; their resolution is then `resolvedWindow(entries)`.
 */
export function keptWindows(limit: number) {
  const keptFor = perOwner<Storage, LruCache<string, KeptWindow>>(() => new LruCache(limit));
  return async function read(
    ctx: ServiceContext,
    key: string,
    source: WindowSource,
  ): Promise<TimelineEntry[]> {
    const { storage } = ctx;
    const cache = keptFor(storage);
    const version = storage.versionOf(WINDOW_KINDS);
    const hit = cache.get(key);
    if (hit !== undefined && hit.version === version) return hit.entries;
    const entries = await source.list();
    const resolved = await source.resolve(entries);
    resolvedOf.set(entries, resolved);
    if (storage.versionOf(WINDOW_KINDS) === version) cache.set(key, { version, entries, resolved });
    return entries;
  };
}

/** The resolution of entries a window keeper handed out; undefined for others. */
export function resolvedWindow(
  entries: readonly TimelineEntry[],
): readonly ResolvedEntry[] | undefined {
  return resolvedOf.get(entries);
}
