// The streaming API as server-sent events, one stream per request, at Mastodon's paths:
// /api/v1/streaming/user, /user/notification, /public (+ /local, /remote; `only_media`),
// /hashtag (+ /local; `tag`), /list (`list`), /direct; and /api/v1/streaming/health ("OK").
// Each event is `event: <name>` and `data: <payload>`; a comment line every heartbeat keeps
// proxies from closing an idle stream. Refusals are Mastodon's: 401 for a missing or bad token
// or scope, 400 for a missing parameter, as `{"error": …}`.

import type { Hono } from "hono";
import type { ServiceContext } from "../../services/context.ts";
import {
  type StreamName,
  StreamRequestError,
  type StreamSpec,
  streamKey,
} from "../../services/streaming/streams.ts";
import type { HttpEnv } from "../env.ts";
import { booleanParam } from "../schemas.ts";
import { authorizeStream, streamingToken, streamViewer } from "./auth.ts";
import { MAX_BUFFERED_BYTES, type StreamClient, type StreamViewer } from "./client.ts";
import type { StreamingHub } from "./hub.ts";

const PATHS: readonly (readonly [string, StreamName])[] = [
  ["user", "user"],
  ["user/notification", "user:notification"],
  ["public", "public"],
  ["public/local", "public:local"],
  ["public/remote", "public:remote"],
  ["hashtag", "hashtag"],
  ["hashtag/local", "hashtag:local"],
  ["list", "list"],
  ["direct", "direct"],
];

const encoder = new TextEncoder();

export class EventStreamClient implements StreamClient {
  readonly viewer: StreamViewer;
  readonly streams: ReadonlyMap<string, StreamSpec>;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #ended = false;
  readonly body: ReadableStream<Uint8Array>;
  onEnd: () => void = () => {};

  constructor(viewer: StreamViewer, spec: StreamSpec) {
    this.viewer = viewer;
    this.streams = new Map([[streamKey(spec), spec]]);
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
          controller.enqueue(encoder.encode(":)\n"));
        },
        cancel: () => this.#end(),
      },
      // Nothing is held back for the reader's sake: what waits is what the socket did not take.
      new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
    );
  }

  #write(text: string): void {
    const controller = this.#controller;
    if (!controller || this.#ended) return;
    // A reader that does not keep up is dropped rather than buffered for without bound.
    if ((controller.desiredSize ?? 0) < -MAX_BUFFERED_BYTES) {
      controller.error(new Error("the client reads too slowly"));
      this.#end();
      return;
    }
    controller.enqueue(encoder.encode(text));
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.onEnd();
  }

  send(_spec: StreamSpec, event: string, payload: string | undefined): void {
    // Events without a payload (filters_changed) are WebSocket only, as in Mastodon.
    if (payload === undefined) return;
    this.#write(`event: ${event}\ndata: ${payload}\n\n`);
  }

  heartbeat(): void {
    this.#write(":thump\n");
  }

  close(): void {
    if (this.#ended) return;
    try {
      this.#controller?.close();
    } catch {
      // Already cancelled by the reader going away.
    }
    this.#end();
  }
}

export function streamingRoutes(app: Hono<HttpEnv>, ctx: ServiceContext, hub: StreamingHub) {
  app.get("/api/v1/streaming/health", (c) => c.text("OK"));

  for (const [path, name] of PATHS) {
    app.get(`/api/v1/streaming/${path}`, async (c) => {
      const token = streamingToken(
        c.req.header("authorization"),
        c.req.query("access_token") ?? null,
        undefined,
      );
      const viewer = await streamViewer(ctx, token);
      if ("error" in viewer) return c.json({ error: viewer.error }, viewer.status);
      let spec: StreamSpec;
      try {
        spec = await authorizeStream(ctx, viewer, name, {
          tag: c.req.query("tag"),
          list: c.req.query("list"),
          onlyMedia: booleanParam.safeParse(c.req.query("only_media") ?? "false").data === true,
        });
      } catch (error) {
        if (!(error instanceof StreamRequestError)) throw error;
        return c.json({ error: error.message }, error.status);
      }
      const client = new EventStreamClient(viewer, spec);
      client.onEnd = hub.add(client);
      c.req.raw.signal.addEventListener("abort", () => client.close(), { once: true });
      return new Response(client.body, {
        headers: {
          "Content-Type": "text/event-stream",
          "Cache-Control": "no-store",
          // Proxies that buffer responses (nginx) would hold the events back.
          "X-Accel-Buffering": "no",
        },
      });
    });
  }
}
