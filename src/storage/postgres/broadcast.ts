// The broadcast on PostgreSQL: NOTIFY on a channel of its own (not wren_changes, which every
// process hears for its memos), listened to only by processes that have a subscriber (the web
// processes' streaming hubs). The payload is the signal's JSON, ids only, far below NOTIFY's
// 8000-byte bound; PostgreSQL delivers it to the publisher's own LISTEN too, so one path serves
// this process and the others alike.

import { getLogger } from "@logtape/logtape";
import { parseStreamSignal, type StreamSignal } from "../../domain/stream-signal.ts";
import type { Broadcast } from "../broadcast-port.ts";
import type { Sql } from "./connect.ts";

const logger = getLogger(["wren", "storage", "broadcast"]);

export const STREAMING_CHANNEL = "wren_streaming";
/** NOTIFY refuses payloads of 8000 bytes or more. */
const MAX_PAYLOAD_BYTES = 7999;

export interface PostgresBroadcast extends Broadcast {
  /** Stops listening (storage close). */
  close(): Promise<void>;
}

export function createPostgresBroadcast(sql: Sql): PostgresBroadcast {
  const listeners = new Set<(signal: StreamSignal) => void>();
  let listening: Promise<{ unlisten(): Promise<void> } | undefined> | undefined;

  const deliver = (payload: string) => {
    const signal = parseStreamSignal(payload);
    if (!signal) return;
    for (const listener of listeners) listener(signal);
  };

  /** Stops listening unless someone subscribed again meanwhile (then that LISTEN stays). */
  const stopListening = async () => {
    const current = listening;
    const handle = await current;
    if (listeners.size > 0 || listening !== current) return;
    listening = undefined;
    await handle?.unlisten().catch(() => {});
  };

  // Signals published while a NOTIFY statement is under way go together in the next one, in
  // the order published: under a stream of posts one statement carries many requests' signals
  // (a round trip and a statement less per post), and a lone signal is sent at once, as before.
  // Each publish resolves once the statement carrying it is done (ADR 0050).
  let gathered: { payload: string; resolve(): void; reject(error: unknown): void }[] = [];
  let sending: Promise<void> | undefined;

  const sendGathered = async () => {
    while (gathered.length > 0) {
      const batch = gathered;
      gathered = [];
      const payloads = batch.map((g) => g.payload);
      try {
        // Volatile output is computed after the sort (PostgreSQL ≥ 9.6): notified in order.
        await (payloads.length === 1
          ? sql`select pg_notify(${STREAMING_CHANNEL}, ${payloads[0] as string})`
          : sql`select pg_notify(${STREAMING_CHANNEL}, p)
                from unnest(${sql.array(payloads)}::text[]) with ordinality as s(p, n) order by n`);
        for (const g of batch) g.resolve();
      } catch (error) {
        for (const g of batch) g.reject(error);
      }
    }
    sending = undefined;
  };

  return {
    publish(signal) {
      const payload = JSON.stringify(signal);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
        logger.error("A streaming signal is too large to send: {kind}", { kind: signal.kind });
        return Promise.resolve();
      }
      const { promise, resolve, reject } = Promise.withResolvers<void>();
      gathered.push({ payload, resolve, reject });
      sending ??= sendGathered();
      return promise;
    },
    subscribe(listener) {
      listeners.add(listener);
      listening ??= sql.listen(STREAMING_CHANNEL, deliver).catch((error) => {
        logger.error("Could not listen for streaming signals: {error}", { error });
        return undefined;
      });
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) void stopListening();
      };
    },
    async listening() {
      await listening;
    },
    async close() {
      listeners.clear();
      // Signals already asked for go out before the connections end.
      while (sending) await sending;
      await stopListening();
    },
  };
}
