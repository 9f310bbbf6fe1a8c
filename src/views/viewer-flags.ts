// What the viewer has done with each status of a page (favourited, boosted, bookmarked, pinned,
// muted its conversation), remembered between requests: every signed-in page asked the store
// five questions about its statuses, and a client reading a timeline asks about the same
// statuses again and again. Remembered per viewer at one Storage.versionOf(FLAG_KINDS): every
// change of those kinds moves it (in every process sharing a database; see
// status-shared-parts.ts), so flags read at one version are exact while it holds (a write of
// another kind, a follow or a marker, keeps them: ADR 0072); a new version starts the viewer's memory
// afresh, and flags read while it moved are used once and not remembered. Bounded: the most
// recently active viewers (VIEWERS), each with the flags of at most STATUSES statuses.

import { LruCache } from "../domain/lru-cache.ts";
import { perOwner } from "../domain/per-owner.ts";
import type { Status } from "../domain/status.ts";
import type { ServiceContext } from "../services/context.ts";
import type { Storage } from "../storage/ports.ts";
import type { VersionKind } from "../storage/version-kinds.ts";

/** The statuses (and conversations) of a page the viewer has acted on. */
export interface ViewerFlagSets {
  favourited: ReadonlySet<string>;
  reblogged: ReadonlySet<string>;
  bookmarked: ReadonlySet<string>;
  pinned: ReadonlySet<string>;
  mutedConversations: ReadonlySet<string>;
}

const FAVOURITED = 1;
const REBLOGGED = 2;
const BOOKMARKED = 4;
const PINNED = 8;

interface Remembered {
  version: number;
  /** Status id → its flag bits. */
  statuses: Map<string, number>;
  /** Conversation id → muted. */
  conversations: Map<string, boolean>;
}

/** Favourites, bookmarks, pins and muted conversations are acts; boosts are statuses. */
const FLAG_KINDS: readonly VersionKind[] = ["acts", "statuses"];

const VIEWERS = 1_000;
export const STATUSES = 500;

const memoriesOf = perOwner<Storage, LruCache<string, Remembered>>(() => new LruCache(VIEWERS));

function memoryOf(storage: Storage, viewerId: string, version: number): Remembered {
  const cache = memoriesOf(storage);
  let remembered = cache.get(viewerId);
  if (remembered === undefined || remembered.version !== version) {
    remembered = { version, statuses: new Map(), conversations: new Map() };
    cache.set(viewerId, remembered);
  }
  return remembered;
}

async function readFlags(
  ctx: ServiceContext,
  viewerId: string,
  ids: readonly string[],
  conversations: readonly string[],
): Promise<{ statuses: Map<string, number>; conversations: Map<string, boolean> }> {
  const { storage } = ctx;
  const [[favourites, bookmarks, pins, mutes], reblogs] = await Promise.all([
    storage.joined.edges(viewerId, [
      { kind: "favourites", direction: "from", ids },
      { kind: "bookmarks", direction: "from", ids },
      { kind: "pins", direction: "from", ids },
      { kind: "conversationMutes", direction: "from", ids: conversations },
    ]),
    ids.length > 0 ? storage.statuses.findReblogs(viewerId, ids) : new Map<string, Status>(),
  ]);
  const statuses = new Map<string, number>();
  for (const id of ids) {
    statuses.set(
      id,
      (favourites.has(id) ? FAVOURITED : 0) |
        (reblogs.has(id) ? REBLOGGED : 0) |
        (bookmarks.has(id) ? BOOKMARKED : 0) |
        (pins.has(id) ? PINNED : 0),
    );
  }
  return { statuses, conversations: new Map(conversations.map((c) => [c, mutes.has(c)])) };
}

/**
 * `fresh`: statuses this very request stored. Nobody has favourited, boosted, bookmarked or
 * pinned them yet, nor, for one that starts its own conversation (not a reply), muted that
 * conversation: known without a read.
 */
export async function loadViewerFlags(
  ctx: ServiceContext,
  viewerId: string,
  statuses: readonly Status[],
  fresh: ReadonlySet<string> = new Set(),
): Promise<ViewerFlagSets> {
  const { storage } = ctx;
  const version = storage.versionOf(FLAG_KINDS);
  const memory = memoryOf(storage, viewerId, version);
  // This page's flags, taken out of the memory before any await: a concurrent request of the
  // viewer may start it afresh meanwhile.
  const bits = new Map<string, number>();
  const muted = new Map<string, boolean>();
  const missingIds: string[] = [];
  const missingConversations: string[] = [];
  for (const { id, conversationId } of statuses) {
    if (fresh.has(id)) {
      bits.set(id, 0);
      if (conversationId === id) muted.set(conversationId, false);
    }
    const known = bits.get(id) ?? memory.statuses.get(id);
    if (known === undefined) missingIds.push(id);
    else bits.set(id, known);
    if (muted.has(conversationId)) continue;
    const isMuted = memory.conversations.get(conversationId);
    if (isMuted !== undefined) muted.set(conversationId, isMuted);
    else if (!missingConversations.includes(conversationId)) {
      missingConversations.push(conversationId);
    }
  }
  if (missingIds.length > 0 || missingConversations.length > 0) {
    const read = await readFlags(ctx, viewerId, missingIds, missingConversations);
    for (const [id, flags] of read.statuses) bits.set(id, flags);
    for (const [id, isMuted] of read.conversations) muted.set(id, isMuted);
    // Remembered only while still the version they were read at (afresh when memory is full).
    if (storage.versionOf(FLAG_KINDS) === version) {
      if (memory.statuses.size + read.statuses.size > STATUSES) {
        memory.statuses.clear();
        memory.conversations.clear();
      }
      for (const [id, flags] of read.statuses) memory.statuses.set(id, flags);
      for (const [id, isMuted] of read.conversations) memory.conversations.set(id, isMuted);
    }
  }
  const sets = {
    favourited: new Set<string>(),
    reblogged: new Set<string>(),
    bookmarked: new Set<string>(),
    pinned: new Set<string>(),
    mutedConversations: new Set<string>(),
  };
  for (const { id, conversationId } of statuses) {
    const flags = bits.get(id) ?? 0;
    if (flags & FAVOURITED) sets.favourited.add(id);
    if (flags & REBLOGGED) sets.reblogged.add(id);
    if (flags & BOOKMARKED) sets.bookmarked.add(id);
    if (flags & PINNED) sets.pinned.add(id);
    if (muted.get(conversationId)) sets.mutedConversations.add(conversationId);
  }
  return sets;
}
