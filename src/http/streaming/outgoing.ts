// What the hub hands to a viewer's connections, and the pace at which it does so: one event per
// subscription of the viewer (by streamKey), sent to every connection of theirs holding that
// subscription; the fan-out works through the viewers in chunks and lets the event loop run
// between chunks, so a request answered by this process never waits behind a whole fan-out.

import type { StreamSpec } from "../../services/streaming/streams.ts";
import { readsNotifications, type StreamClient } from "./client.ts";

/** One event for one subscription (by streamKey) of the viewer. */
export interface Outgoing {
  key: string;
  event: string;
  payload: string | undefined;
}

export type Specs = ReadonlyMap<string, StreamSpec>;

/** Viewers worked through at once (their checks and renderings run concurrently). */
const VIEWER_CHUNK = 100;
/** Longest stretch of fan-out work before the event loop runs again. */
const SLICE_MS = 4;

/** Lets the event loop run (I/O callbacks, other requests) before going on. */
function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A pacer for one fan-out: `await pace()` between units of work lets the event loop run once the
 * work since the last turn passed SLICE_MS (storage reads of the json-file backend are answered
 * from memory, so without it a fan-out would run to its end in one turn).
 */
function pacer(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < SLICE_MS) return undefined;
    return yieldToLoop().then(() => {
      since = performance.now();
    });
  };
}

/** The union of the subscriptions of a viewer's connections. */
export function specsOf(mine: ReadonlySet<StreamClient>): Map<string, StreamSpec> {
  const specs = new Map<string, StreamSpec>();
  for (const client of mine) for (const [key, spec] of client.streams) specs.set(key, spec);
  return specs;
}

/** Events of the notifications family, which the user stream carries for some tokens only. */
const NOTIFICATION_EVENTS: ReadonlySet<string> = new Set(["notification", "notifications_merged"]);

/** Sends each event to every connection of the viewer subscribed to its stream. */
async function sendOut(
  mine: ReadonlySet<StreamClient>,
  out: readonly Outgoing[],
  pace: () => Promise<void> | undefined,
): Promise<void> {
  for (const { key, event, payload } of out) {
    for (const client of mine) {
      const spec = client.streams.get(key);
      if (!spec) continue;
      if (spec.name === "user" && NOTIFICATION_EVENTS.has(event)) {
        if (!readsNotifications(client.viewer)) continue;
      }
      client.send(spec, event, payload);
      await pace();
    }
  }
}

/**
 * Works out the events of each viewer (`eventsOf`, a chunk of viewers at a time) and sends them
 * to the viewer's connections, pacing the whole so the event loop runs every few milliseconds.
 */
export async function deliverInChunks<V>(
  viewers: readonly V[],
  eventsOf: (viewer: V) => Promise<Outgoing[]> | Outgoing[],
  clientsOf: (viewer: V) => ReadonlySet<StreamClient>,
): Promise<void> {
  const pace = pacer();
  for (let start = 0; start < viewers.length; start += VIEWER_CHUNK) {
    await (pace() ?? (start > 0 ? yieldToLoop() : undefined));
    const chunk = viewers.slice(start, start + VIEWER_CHUNK);
    const out = await Promise.all(chunk.map(eventsOf));
    for (const [i, viewer] of chunk.entries()) await sendOut(clientsOf(viewer), out[i] ?? [], pace);
  }
}
