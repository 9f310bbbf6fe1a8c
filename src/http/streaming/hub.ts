// This process's streaming connections and the signals they are fed from. Every web process has
// one hub; it hears the signals of every process through the storage's broadcast and delivers
// them in the order heard (one at a time, so a client never sees an edit before its post). One
// timer keeps every connection alive, rather than one per connection, and ends those of accounts
// that may no longer stream (a disabled user: services/streaming/sessions.ts).

import { getLogger } from "@logtape/logtape";
import type { StreamSignal } from "../../domain/stream-signal.ts";
import type { ServiceContext } from "../../services/context.ts";
import { accountsShutOut } from "../../services/streaming/sessions.ts";
import type { StreamClient } from "./client.ts";
import { deliverSignal } from "./deliver.ts";

const logger = getLogger(["wren", "streaming"]);

/** Mastodon's server-sent events send a heartbeat every 15 seconds; WebSockets ping as often. */
export const HEARTBEAT_MS = 15_000;

export interface StreamingHub {
  /** Adds a connection; returns its removal. */
  add(client: StreamClient): () => void;
  /** Resolves once signals reach this hub (the process listens). */
  ready(): Promise<void>;
  /** Ends every connection and stops hearing signals. */
  close(): void;
}

export function createStreamingHub(
  ctx: ServiceContext,
  options: { heartbeatMs?: number } = {},
): StreamingHub {
  const byViewer = new Map<string, Set<StreamClient>>();
  let count = 0;
  let queue: Promise<void> = Promise.resolve();

  const hear = (signal: StreamSignal) => {
    if (count === 0) return;
    queue = queue.then(() =>
      deliverSignal(ctx, signal, byViewer).catch((error) => {
        logger.error("Could not deliver a {kind} signal: {error}", { kind: signal.kind, error });
      }),
    );
  };

  // Heard from the first connection or ready() on: a worker process, which builds the HTTP
  // layer but serves nothing, never listens.
  let stopHearing: (() => void) | undefined;
  const startHearing = () => {
    stopHearing ??= ctx.storage.broadcast.subscribe(hear);
  };
  /** Ends the connections of accounts that may no longer stream (sessions.ts). */
  const sweep = async () => {
    const shutOut = await accountsShutOut(ctx, [...byViewer.keys()]);
    for (const accountId of shutOut) {
      for (const client of [...(byViewer.get(accountId) ?? [])]) client.close();
    }
  };
  const heartbeat = setInterval(() => {
    for (const clients of byViewer.values()) for (const client of clients) client.heartbeat();
    sweep().catch((error) => {
      logger.warn("Could not check the streaming accounts: {error}", { error });
    });
  }, options.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref();

  return {
    add(client) {
      startHearing();
      const accountId = client.viewer.accountId;
      let clients = byViewer.get(accountId);
      if (!clients) {
        clients = new Set();
        byViewer.set(accountId, clients);
      }
      clients.add(client);
      count += 1;
      let removed = false;
      return () => {
        if (removed) return;
        removed = true;
        count -= 1;
        const mine = byViewer.get(accountId);
        mine?.delete(client);
        if (mine?.size === 0) byViewer.delete(accountId);
      };
    },
    ready() {
      startHearing();
      return ctx.storage.broadcast.listening();
    },
    close() {
      clearInterval(heartbeat);
      stopHearing?.();
      stopHearing = undefined;
      for (const clients of [...byViewer.values()])
        for (const client of [...clients]) client.close();
      byViewer.clear();
      count = 0;
    },
  };
}
