// One streaming connection as the hub sees it, whatever carries it (a WebSocket or a server-sent
// events response): whose it is, what it subscribed to, and how an event reaches it.

import { scopesAdmit } from "../../domain/scopes.ts";
import type { StreamSpec } from "../../services/streaming/streams.ts";

export interface StreamViewer {
  accountId: string;
  /** The token the connection was opened with (its streams end when it is revoked). */
  tokenId: string;
  scopes: readonly string[];
}

export interface StreamClient {
  readonly viewer: StreamViewer;
  /** Its subscriptions by streamKey. */
  readonly streams: ReadonlyMap<string, StreamSpec>;
  /**
   * Sends one event of a subscription. `payload` is the JSON text of the entity, or an id;
   * absent for events without one (filters_changed, which server-sent events do not carry).
   */
  send(spec: StreamSpec, event: string, payload: string | undefined): void;
  /** Keeps the connection alive and ends one that stopped answering. */
  heartbeat(): void;
  /** Ends the connection (the server is closing). */
  close(): void;
}

/** The user stream carries notifications only for tokens that may read them (Mastodon). */
export function readsNotifications(viewer: StreamViewer): boolean {
  return scopesAdmit(viewer.scopes, ["read:notifications"]);
}

/** Bytes a connection may have waiting to be sent before it counts as too slow and is dropped. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
