// A preview card: what a linked page says about itself (OpenGraph and plain meta tags), cached
// per URL and shown with every status whose first link it is. Only the "link" type is built:
// embeds (video/rich HTML from the page) are never taken, so no foreign markup reaches clients.

export interface PreviewCard {
  /** The linked URL as it appears in the status (the cache key). */
  url: string;
  title: string;
  description: string;
  type: "link";
  authorName: string;
  authorUrl: string;
  providerName: string;
  providerUrl: string;
  /** File-host key of the re-encoded image, or null when the page named none usable. */
  imageKey: string | null;
  width: number;
  height: number;
  blurhash: string | null;
  imageDescription: string;
  /** When the page was last fetched (ISO): the card is fetched again after PREVIEW_CARD_TTL_MS. */
  fetchedAt: string;
}

/** Mastodon refreshes a card after two weeks. */
export const PREVIEW_CARD_TTL_MS = 14 * 24 * 3600_000;
