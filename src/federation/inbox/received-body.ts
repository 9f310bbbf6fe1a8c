// An inbox POST's body, read once as bytes straight from the connection. Cloning the request to
// read it (as Fedify's handler needs the body left unread) made the Node adapter build a full web
// Request with a stream and tee it: its header conversion, the stream's pulls and the copy were
// about 8% of the server's busy time per inbox activity (docs/PERFORMANCE.md, "Inbox, round
// six"). The signature of a plain activity is checked on these bytes (draft-signature.ts) and the
// activity queued from them, so nothing else reads the body; a request readable again is built
// from the bytes only when Fedify must take it (another signature, another kind of body).

/** An inbox POST whose body has been read. */
export interface ReceivedPost {
  /** The body as received. */
  bytes: Uint8Array;
  /**
   * A request with the same method, URL and headers and these bytes as its body, for Fedify
   * (which reads bodies itself); built on first use, then the same one.
   */
  readable(): Request;
}

/**
 * Reads `request`'s body once. `request` must not be read again afterwards: its headers, URL and
 * method stay usable; for its body, use `readable()`.
 */
export async function receivePost(request: Request): Promise<ReceivedPost> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  let rebuilt: Request | undefined;
  return {
    bytes,
    readable() {
      rebuilt ??= new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body: bytes,
        signal: request.signal,
      });
      return rebuilt;
    },
  };
}
