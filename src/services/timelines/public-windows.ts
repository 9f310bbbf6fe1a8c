// The public timeline's listing and resolving, which are the same for every viewer: one window of
// the store's public entries and what of them any viewer may be shown (public non-boosts, no
// replies to others), kept per window and Storage.version(). Every reader of the public timeline
// between two writes, signed in or not, then starts from the same resolved window; only what
// depends on the viewer (their exclusions, silenced accounts, visibility, `hide` filters) is done
// per request. Exact as the other memos keyed by the version (views/status-shared-parts.ts):
// kept only when the version did not move while the window was read, served only at that version.

import { LruCache } from "../../domain/lru-cache.ts";
import { perOwner } from "../../domain/per-owner.ts";
import type { TimelineEntry } from "../../domain/status.ts";
import type { IdPage, PublicFilter, Storage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { type PublicOptions, resolvePublic } from "./public-filter.ts";
import type { ResolvedEntry } from "./resolve-entries.ts";

interface KeptWindow {
  version: number;
  entries: TimelineEntry[];
  resolved: readonly ResolvedEntry[];
}

/** Windows of the public timelines' first pages and a few pages on (each ~31 entries). */
const KEPT_WINDOWS = 200;

const keptFor = perOwner<Storage, LruCache<string, KeptWindow>>(() => new LruCache(KEPT_WINDOWS));
/** Each kept window's resolution, by the very entries array handed out (fillPage passes it on). */
const resolvedOf = new WeakMap<readonly TimelineEntry[], readonly ResolvedEntry[]>();

const keyOf = (filter: PublicFilter, window: IdPage, options: PublicOptions) =>
  JSON.stringify([
    filter.origin,
    filter.onlyMedia === true,
    options.withReplies,
    window.limit,
    window.maxId ?? null,
    window.sinceId ?? null,
    window.minId ?? null,
  ]);

/**
 * One window of the public entries, as `listPublicEntries` answers it; its resolution
 * (resolvePublic) is then `resolvedWindow(entries)`.
 */
export async function readPublicWindow(
  ctx: ServiceContext,
  filter: PublicFilter,
  window: IdPage,
  options: Omit<PublicOptions, "also">,
): Promise<TimelineEntry[]> {
  const { storage } = ctx;
  const cache = keptFor(storage);
  const key = keyOf(filter, window, options);
  const version = storage.version();
  const hit = cache.get(key);
  if (hit !== undefined && hit.version === version) return hit.entries;
  const entries = await storage.statuses.listPublicEntries(window, filter);
  const resolved = await resolvePublic(ctx, entries, options);
  resolvedOf.set(entries, resolved);
  if (storage.version() === version) cache.set(key, { version, entries, resolved });
  return entries;
}

/** resolvePublic's answer for entries readPublicWindow handed out; undefined for others. */
export function resolvedWindow(
  entries: readonly TimelineEntry[],
): readonly ResolvedEntry[] | undefined {
  return resolvedOf.get(entries);
}
