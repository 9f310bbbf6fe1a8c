// Collections (Mastodon 4.6): a user's curated, named lists of accounts they recommend others to
// follow. Each collection holds its items (one per featured account) inline: there are at most a
// few dozen, and every read shows the collection with its items.

/**
 * An item's consent state. A local account is featured at once (accepted); a remote one would be
 * asked over ActivityPub (pending until it answers: accepted or rejected). Revoked: the featured
 * account took itself out.
 */
export const COLLECTION_ITEM_STATES = ["pending", "accepted", "rejected", "revoked"] as const;

export type CollectionItemState = (typeof COLLECTION_ITEM_STATES)[number];

/** Mastodon's limits on a local collection. */
export const COLLECTION_NAME_MAX_LENGTH = 40;
export const COLLECTION_DESCRIPTION_MAX_LENGTH = 100;
/** The most pending and accepted items one collection may hold (Mastodon's MAX_ITEMS). */
export const COLLECTION_MAX_ITEMS = 25;
/** The most collections one user may have (Mastodon's per-role limit; Wren has no roles for it). */
export const COLLECTIONS_PER_ACCOUNT = 10;

export interface CollectionItem {
  id: string;
  /** The featured account. */
  accountId: string;
  state: CollectionItemState;
  createdAt: string;
}

export interface Collection {
  id: string;
  /** The owner (a local account). */
  accountId: string;
  name: string;
  description: string;
  /** An ISO 639 code, or null. */
  language: string | null;
  /** The one hashtag that describes the collection, as its owner typed it (no `#`), or null. */
  tag: string | null;
  sensitive: boolean;
  /** Shown to others (on the profile, in discovery); the owner always sees it. */
  discoverable: boolean;
  /** In the order they were added. */
  items: CollectionItem[];
  createdAt: string;
  updatedAt: string;
}

/** Whether an item still counts against the collection's limit and may be shown. */
export function isLiveItem(item: CollectionItem): boolean {
  return item.state === "pending" || item.state === "accepted";
}
