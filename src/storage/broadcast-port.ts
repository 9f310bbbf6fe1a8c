// The streaming signals' way between processes. json-file: one process owns the data directory,
// so a signal goes to this process's subscribers; PostgreSQL: LISTEN/NOTIFY on a channel of its
// own, so a write by any process reaches the streaming connections of every web process.
// Best effort, like Mastodon's Redis pub/sub: a signal sent while a process was not listening
// is not replayed (the clients reload their timelines when they reconnect).

import type { StreamSignal } from "../domain/stream-signal.ts";

export interface Broadcast {
  /** Sends the signal to every subscriber of every process on this storage, this one's too. */
  publish(signal: StreamSignal): Promise<void>;
  /** Hears every published signal, in publishing order per process; returns the unsubscribe. */
  subscribe(listener: (signal: StreamSignal) => void): () => void;
  /** Resolves once signals published from now on reach the subscribers (LISTEN is in place). */
  listening(): Promise<void>;
}
