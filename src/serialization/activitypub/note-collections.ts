// The collections a local Note names, shaped as Mastodon publishes them: `replies`, a Collection
// whose first page is embedded (the replies' ids, the author's own replies first, with `next`
// when there are more), and `likes` and `shares`, Collections carrying only `totalItems` (who
// favourited or boosted is not listed, as in Mastodon). Each is dereferenceable at its id
// (federation/collections/status-collections.ts). Pure.

import { Collection, CollectionPage } from "@fedify/vocab";

/** The first page of a status's replies, as federation/collections/replies-page.ts reads it. */
export interface RepliesPage {
  /** Ids of the listed replies, in order. */
  items: readonly URL[];
  /** The cursor of the page after it, or null when it is the only page. */
  nextCursor: string | null;
}

/** `<status uri>/replies`, `/likes`, `/shares`: the collections' ids. */
export function noteCollectionUrl(statusUri: string, name: "replies" | "likes" | "shares"): URL {
  return new URL(`${statusUri}/${name}`);
}

/** The URL of one page of a status's replies collection. */
export function repliesPageUrl(statusUri: string, cursor: string): URL {
  const url = noteCollectionUrl(statusUri, "replies");
  url.searchParams.set("cursor", cursor);
  return url;
}

/** The cursor of the replies collection's first page. */
export const FIRST_REPLIES_CURSOR = "first";

export function toRepliesCollection(statusUri: string, first: RepliesPage): Collection {
  return new Collection({
    id: noteCollectionUrl(statusUri, "replies"),
    first: new CollectionPage({
      id: repliesPageUrl(statusUri, FIRST_REPLIES_CURSOR),
      partOf: noteCollectionUrl(statusUri, "replies"),
      items: [...first.items],
      next: first.nextCursor === null ? null : repliesPageUrl(statusUri, first.nextCursor),
    }),
  });
}

export function toCountCollection(
  statusUri: string,
  name: "likes" | "shares",
  totalItems: number,
): Collection {
  return new Collection({ id: noteCollectionUrl(statusUri, name), totalItems });
}
