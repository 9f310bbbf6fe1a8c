// Kinds of records for Storage.versionOf (ADR 0072): each visible change counts for the kind of
// the records it wrote, and Storage.version() moves with every one. A memo that reads only some
// kinds (a viewer's blocks and follows read relations only) stays kept across writes of the
// others: another account's marker or notification no longer drops every page's kept parts.
// Both backends count with KindVersions; the names of records (json-file folders, PostgreSQL
// tables and change signals, edge kinds) are mapped to kinds here and beside each backend.

/**
 * statuses: statuses and what is read from them (counters, timelines, tags, polls and votes,
 * edits, quotes, conversations); accounts: accounts, users, apps, custom emojis; media: media
 * attachments; acts: what an account did to a status (favourites, bookmarks, pins, muted
 * conversations); relations: between accounts and of an account's own reading (follows and
 * requests, blocks, mutes, blocked servers, followed tags, lists, filters…); kv: the key–value
 * store (preview cards, server blocks, federation caches); tokens: access tokens and
 * authorization codes; other: what no kept page part reads (markers, notifications,
 * announcements, reports, scheduled statuses, push subscriptions, idempotency keys).
 */
export const VERSION_KINDS = [
  "statuses",
  "accounts",
  "media",
  "acts",
  "relations",
  "kv",
  "tokens",
  "other",
] as const;

export type VersionKind = (typeof VERSION_KINDS)[number];

/** Every kind: a change whose kind is not known counts for all of them. */
export const ALL_KINDS: readonly VersionKind[] = VERSION_KINDS;

/** Every kind an API answer may show but tokens and "other": what a rendered status reads. */
export const CONTENT_KINDS: readonly VersionKind[] = VERSION_KINDS.filter(
  (kind) => kind !== "tokens" && kind !== "other",
);

/**
 * Edges by the kind both backends name them by (json-file folders, the PostgreSQL edge kinds of
 * edge-store.ts and their change signals). A name not listed counts for every kind.
 */
const EDGE_KINDS: Readonly<Record<string, VersionKind>> = {
  favourites: "acts",
  bookmarks: "acts",
  pins: "acts",
  "conversation-mutes": "acts",
  "poll-votes": "statuses",
  quotes: "statuses",
  follows: "relations",
  "follow-requests": "relations",
  blocks: "relations",
  mutes: "relations",
  "tag-follows": "relations",
  "featured-tags": "relations",
  "list-members": "relations",
  "account-notes": "relations",
  "account-domain-blocks": "relations",
  "notification-permissions": "relations",
  endorsements: "relations",
  "suggestion-dismissals": "relations",
  "announcement-dismissals": "other",
};

/** The kind of an edge kind's writes; undefined when unknown (count it for every kind). */
export function kindOfEdge(edgeKind: string): VersionKind | undefined {
  return Object.hasOwn(EDGE_KINDS, edgeKind) ? EDGE_KINDS[edgeKind] : undefined;
}

/**
 * Counters of visible changes by kind, and of all of them (Storage.version()). A change counts
 * once in the total whatever the number of kinds it names, so the total moves exactly as the one
 * counter it replaces did.
 */
export class KindVersions {
  readonly #counts = new Map(VERSION_KINDS.map((k): [VersionKind, number] => [k, 0]));
  #total = 0;

  /** Storage.version(). */
  get total(): number {
    return this.#total;
  }

  /** One change of records of `kinds` (ALL_KINDS when unknown). */
  note(kinds: VersionKind | readonly VersionKind[]): void {
    this.#total++;
    if (typeof kinds === "string") this.#bump(kinds);
    else for (const kind of new Set(kinds)) this.#bump(kind);
  }

  /** Storage.versionOf: the sum of the kinds' counters, which moves when any of them does. */
  of(kinds: readonly VersionKind[]): number {
    let sum = 0;
    for (const kind of kinds) sum += this.#counts.get(kind) as number;
    return sum;
  }

  #bump(kind: VersionKind): void {
    this.#counts.set(kind, (this.#counts.get(kind) as number) + 1);
  }
}
