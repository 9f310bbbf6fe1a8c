// The broadcast of a storage one process owns (json-file): subscribers are in this process.
// Delivered on a later turn, as a signal from another process would be, so a publisher never
// runs the subscribers' work inside its own write.

import type { StreamSignal } from "../../domain/stream-signal.ts";
import type { Broadcast } from "../broadcast-port.ts";

export function createInProcessBroadcast(): Broadcast {
  const listeners = new Set<(signal: StreamSignal) => void>();
  return {
    async publish(signal) {
      if (listeners.size === 0) return;
      // Every field of a signal is a string (stream-signal.ts): a shallow copy detaches it, at a
      // fraction of structuredClone's cost on each post.
      const copy = Object.freeze({ ...signal });
      setImmediate(() => {
        for (const listener of listeners) listener(copy);
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    listening: async () => {},
  };
}
