// The streaming API over WebSocket at /api/v1/streaming, as Mastodon's streaming server serves
// it: the token is checked before the upgrade (401 otherwise), `?stream=` (with `tag`/`list`)
// opens a first subscription, and messages {"type":"subscribe"|"unsubscribe","stream",…} add
// and drop others on the same connection. Events go out as {"stream":[…],"event","payload"}.
// Errors of a subscription are sent as {"error","status"} and leave the connection open.

import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { getLogger } from "@logtape/logtape";
import { type WebSocket, WebSocketServer } from "ws";
import type { ServiceContext } from "../../services/context.ts";
import {
  parseStream,
  type StreamParams,
  StreamRequestError,
  type StreamSpec,
  streamKey,
  streamLabel,
} from "../../services/streaming/streams.ts";
import { authorizeStream, streamingToken, streamViewer } from "./auth.ts";
import { MAX_BUFFERED_BYTES, type StreamClient, type StreamViewer } from "./client.ts";
import type { StreamingHub } from "./hub.ts";

const logger = getLogger(["wren", "streaming"]);

export const WEBSOCKET_PATH = "/api/v1/streaming";
/** Client messages are a few hundred bytes; anything far larger is not one. */
const MAX_MESSAGE_BYTES = 16 * 1024;
/** Subscriptions one connection may hold (Mastodon sets none; a bound keeps memory honest). */
const MAX_SUBSCRIPTIONS = 100;

function refuse(socket: Duplex, status: number, reason: string, message: string): void {
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/**
 * The last message built: the hub sends one event to every connection of a viewer (and, for an
 * event without viewer-specific content, of every viewer) in a row, so one message is encoded
 * once for all of them rather than once per connection.
 */
let lastFrame:
  | { spec: StreamSpec; event: string; payload: string | undefined; bytes: Buffer }
  | undefined;

function frameOf(spec: StreamSpec, event: string, payload: string | undefined): Buffer {
  const last = lastFrame;
  if (last && last.event === event && last.payload === payload && sameStream(last.spec, spec)) {
    return last.bytes;
  }
  const message: Record<string, unknown> = { stream: streamLabel(spec), event };
  if (payload !== undefined) message.payload = payload;
  const bytes = Buffer.from(JSON.stringify(message));
  lastFrame = { spec, event, payload, bytes };
  return bytes;
}

function sameStream(a: StreamSpec, b: StreamSpec): boolean {
  return a === b || (a.name === b.name && a.tag === b.tag && a.list === b.list);
}

export class WebSocketClient implements StreamClient {
  readonly streams = new Map<string, StreamSpec>();
  readonly viewer: StreamViewer;
  private readonly ws: WebSocket;
  #alive = true;
  constructor(viewer: StreamViewer, ws: WebSocket) {
    this.viewer = viewer;
    this.ws = ws;
    ws.on("pong", () => {
      this.#alive = true;
    });
  }

  send(spec: StreamSpec, event: string, payload: string | undefined): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    // A reader that does not keep up is dropped rather than buffered for without bound; it
    // reconnects and reloads its timelines, as after any disconnection.
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      logger.info("Dropping a streaming connection that reads too slowly");
      this.ws.terminate();
      return;
    }
    this.ws.send(frameOf(spec, event, payload), { binary: false });
  }

  error(error: string, status: number): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify({ error, status }));
  }

  heartbeat(): void {
    if (!this.#alive) {
      this.ws.terminate();
      return;
    }
    this.#alive = false;
    this.ws.ping();
  }

  close(): void {
    this.ws.terminate();
  }
}

function paramsOf(source: { get(name: string): string | null | undefined }): StreamParams {
  return { tag: source.get("tag") ?? undefined, list: source.get("list") ?? undefined };
}

export interface WebSocketStreaming {
  /** Ends every WebSocket (the server is closing). */
  close(): void;
}

/** Serves the streaming WebSocket on the server's upgrade requests. */
export function attachWebSocketStreaming(
  server: Server,
  ctx: ServiceContext,
  hub: StreamingHub,
): WebSocketStreaming {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  async function subscribe(client: WebSocketClient, name: unknown, params: StreamParams) {
    try {
      if (typeof name !== "string") throw new StreamRequestError("Unknown stream type");
      const spec = await authorizeStream(ctx, client.viewer, name, params);
      if (client.streams.size >= MAX_SUBSCRIPTIONS) {
        throw new StreamRequestError("Too many subscriptions on this connection");
      }
      client.streams.set(streamKey(spec), spec);
    } catch (error) {
      if (!(error instanceof StreamRequestError)) throw error;
      client.error(error.message, error.status);
    }
  }

  function unsubscribe(client: WebSocketClient, name: unknown, params: StreamParams) {
    try {
      if (typeof name !== "string") throw new StreamRequestError("Unknown stream type");
      // Parsed as a subscription would be, so `hashtag` with `#Tag` drops `hashtag` `tag`.
      client.streams.delete(streamKey(parseStream(name, params)));
    } catch {
      client.error("Error unsubscribing from channel", 400);
    }
  }

  async function onMessage(client: WebSocketClient, data: unknown): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(String(data));
    } catch {
      return client.error("Malformed message", 400);
    }
    if (typeof message !== "object" || message === null) {
      return client.error("Malformed message", 400);
    }
    const { type, stream } = message as Record<string, unknown>;
    const params = paramsOf({
      get: (name) => {
        const value = (message as Record<string, unknown>)[name];
        return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
      },
    });
    if (type === "subscribe") return subscribe(client, stream, params);
    if (type === "unsubscribe") return unsubscribe(client, stream, params);
    client.error("Unknown message type", 400);
  }

  function open(ws: WebSocket, viewer: StreamViewer, url: URL) {
    const client = new WebSocketClient(viewer, ws);
    const remove = hub.add(client);
    ws.on("close", remove);
    ws.on("error", () => ws.terminate());
    // One message at a time, in order: an unsubscribe never overtakes the subscribe before it.
    let turn: Promise<void> = Promise.resolve();
    const inTurn = (work: () => Promise<void>) => {
      turn = turn.then(work).catch(logFailure);
    };
    const stream = url.searchParams.get("stream");
    if (stream !== null) inTurn(() => subscribe(client, stream, paramsOf(url.searchParams)));
    ws.on("message", (data) => inTurn(() => onMessage(client, data)));
  }

  async function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on("error", () => socket.destroy());
    const url = new URL(request.url ?? "/", "http://streaming.invalid");
    if (url.pathname.replace(/\/+$/, "") !== WEBSOCKET_PATH) {
      return refuse(socket, 404, "Not Found", "Not found");
    }
    const token = streamingToken(
      request.headers.authorization,
      url.searchParams.get("access_token"),
      request.headers["sec-websocket-protocol"],
    );
    const viewer = await streamViewer(ctx, token);
    if ("error" in viewer) return refuse(socket, viewer.status, "Unauthorized", viewer.error);
    wss.handleUpgrade(request, socket, head, (ws) => open(ws, viewer, url));
  }

  const listener = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    onUpgrade(request, socket, head).catch((error) => {
      logger.error("Could not open a streaming WebSocket: {error}", { error });
      refuse(socket, 500, "Internal Server Error", "Internal server error");
    });
  };
  server.on("upgrade", listener);
  return {
    close() {
      server.off("upgrade", listener);
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

function logFailure(error: unknown) {
  logger.error("A streaming subscription failed: {error}", { error });
}
