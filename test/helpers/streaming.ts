// Streaming API clients for tests: a WebSocket client (the `ws` package, which can send an
// Authorization header as native clients do) and a server-sent events client over fetch. Both
// queue what arrives; `next()` takes the next event in order, so a test proves that something
// was NOT sent by receiving, next, what was sent after it.

import WebSocket from "ws";

export interface StreamEvent {
  /** The WebSocket message's `stream` (absent over server-sent events). */
  stream?: string[];
  event: string;
  payload?: string;
  /** The payload parsed, for events whose payload is an entity. */
  json?: unknown;
}

/** How long next() waits before failing the test: a bound against hanging, not an expectation. */
const WAIT_MS = 15_000;

class Inbox<T> {
  #items: T[] = [];
  #waiters: ((item: T) => void)[] = [];
  push(item: T) {
    const waiter = this.#waiters.shift();
    if (waiter) waiter(item);
    else this.#items.push(item);
  }
  next(what: string): Promise<T> {
    const item = this.#items.shift();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== settle);
        reject(new Error(`no ${what} arrived`));
      }, WAIT_MS);
      const settle = (value: T) => {
        clearTimeout(timer);
        resolve(value);
      };
      this.#waiters.push(settle);
    });
  }
  get pending(): number {
    return this.#items.length;
  }
}

function parsed(payload: string | undefined): unknown {
  if (payload === undefined) return undefined;
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

export interface WebSocketOptions {
  token?: string;
  /** How the token travels (default: the Authorization header). */
  via?: "header" | "query" | "protocol";
  /** Query parameters (stream, tag, list). */
  query?: Record<string, string>;
}

export interface TestWebSocket {
  ws: WebSocket;
  /** The next event (errors, sent as {"error","status"}, come through `nextError`). */
  next(): Promise<StreamEvent>;
  nextError(): Promise<{ error: string; status: number }>;
  send(message: Record<string, unknown>): void;
  close(): Promise<void>;
}

/** Opens /api/v1/streaming; rejects with the HTTP status when the upgrade is refused. */
export function openWebSocket(
  baseUrl: string,
  options: WebSocketOptions = {},
): Promise<TestWebSocket> {
  const url = new URL("/api/v1/streaming", baseUrl.replace(/^http/, "ws"));
  for (const [name, value] of Object.entries(options.query ?? {})) {
    url.searchParams.set(name, value);
  }
  const via = options.via ?? "header";
  const headers: Record<string, string> = {};
  if (options.token !== undefined && via === "header") {
    headers.authorization = `Bearer ${options.token}`;
  }
  if (options.token !== undefined && via === "query") {
    url.searchParams.set("access_token", options.token);
  }
  const ws =
    options.token !== undefined && via === "protocol"
      ? new WebSocket(url, options.token, { headers })
      : new WebSocket(url, { headers });
  const events = new Inbox<StreamEvent>();
  const errors = new Inbox<{ error: string; status: number }>();
  ws.on("message", (data) => {
    const message = JSON.parse(String(data));
    if (typeof message.error === "string") errors.push(message);
    else events.push({ ...message, json: parsed(message.payload) });
  });
  return new Promise((resolve, reject) => {
    ws.once("unexpected-response", (_request, response) => {
      reject(
        Object.assign(new Error(`refused: ${response.statusCode}`), {
          status: response.statusCode,
        }),
      );
      ws.terminate();
    });
    ws.once("error", reject);
    ws.once("open", () =>
      resolve({
        ws,
        next: () => events.next("WebSocket event"),
        nextError: () => errors.next("WebSocket error"),
        send: (message) => ws.send(JSON.stringify(message)),
        close: () =>
          new Promise<void>((done) => {
            if (ws.readyState === WebSocket.CLOSED) return done();
            ws.once("close", () => done());
            ws.close();
          }),
      }),
    );
  });
}

export interface TestEventStream {
  status: number;
  next(): Promise<StreamEvent>;
  /** Comment lines (the opening ":)" and heartbeats) seen so far. */
  comments: string[];
  close(): Promise<void>;
}

/** Opens a server-sent events stream; `status` tells a refusal (the body then is not read). */
export async function openEventStream(
  baseUrl: string,
  path: string,
  token?: string,
): Promise<TestEventStream & { body?: unknown }> {
  const abort = new AbortController();
  const response = await fetch(new URL(path, baseUrl), {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: abort.signal,
  });
  const events = new Inbox<StreamEvent>();
  const comments: string[] = [];
  if (response.status !== 200 || !response.body) {
    return {
      status: response.status,
      body: await response.json().catch(() => undefined),
      comments,
      next: () => events.next("server-sent event"),
      close: async () => abort.abort(),
    };
  }
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    let event: Partial<StreamEvent> = {};
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let newline = buffer.indexOf("\n");
      while (newline !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (line.startsWith(":")) comments.push(line);
        else if (line.startsWith("event: ")) event.event = line.slice(7);
        else if (line.startsWith("data: ")) event.payload = line.slice(6);
        else if (line === "" && event.event) {
          events.push({ event: event.event, payload: event.payload, json: parsed(event.payload) });
          event = {};
        }
        newline = buffer.indexOf("\n");
      }
    }
  })().catch(() => {});
  return {
    status: response.status,
    comments,
    next: () => events.next("server-sent event"),
    close: async () => {
      abort.abort();
      await reading;
    },
  };
}
