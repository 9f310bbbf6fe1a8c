// The port through which use cases fetch a linked page or image from the open web. The
// implementation (federation/link-fetcher.ts) goes through the guarded fetch: private addresses
// refused, bytes, redirects and time capped. Contexts without it (CLI, unit tests) fetch nothing.

export interface FetchedLink {
  /** The final URL after redirects. */
  url: string;
  status: number;
  /** The media type without parameters, lower case ("" when absent). */
  contentType: string;
  /** The `charset` parameter of the Content-Type, lower case, or null. */
  charset: string | null;
  body: Uint8Array;
}

export interface LinkFetcher {
  /** Throws when the guard refuses or cuts off the fetch. */
  fetch(url: string, options: { accept: string; maxBytes: number }): Promise<FetchedLink>;
}
