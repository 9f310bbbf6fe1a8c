// The framework's own floor: Hono behind `@hono/node-server` (the versions Wren runs on),
// answering the recorded responses the bare `node:http` server answers, with the same two
// headers, from one catch-all route and no middleware. What it costs beside the bare server is
// what Hono and its adapter alone take from any request of Wren's, before Wren's middleware and
// routes; no Wren request can do better. With `--with-wren-headers` it also sends the other
// headers Wren answered with (rate limits, CORS, caching, request id: Mastodon's, which every
// answer of the API carries), set on Node's response one by one as Wren's middleware sets them:
// the floor of an answer of Wren's own shape. Otherwise the same command line and
// `LISTENING <port>` line as bare-server.ts.

import type { IncomingMessage, ServerResponse } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { loadRecordedResponses } from "./recorded-responses.ts";

const file = process.argv[2];
if (!file) throw new Error("usage: bare-hono-server.ts <responses.json> [--with-wren-headers]");
const withWrenHeaders = process.argv.includes("--with-wren-headers");
const { answerFor } = loadRecordedResponses(file);

// The adapter hands Node's request over as `incoming`: its target (path and query) is the
// recorded key, as in bare-server.ts, without building a URL.
const app = new Hono<{ Bindings: { incoming: IncomingMessage; outgoing: ServerResponse } }>();
app.all("*", (c) => {
  const { incoming, outgoing } = c.env;
  const hit = answerFor(incoming.method, incoming.url, Boolean(incoming.headers.authorization));
  if (!hit) return c.body(null, 404);
  if (withWrenHeaders) for (const [name, value] of hit.headers) outgoing.setHeader(name, value);
  return c.body(hit.bytes, hit.status as 200, {
    "content-type": hit.type,
    "content-length": String(hit.bytes.length),
  });
});

const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
  process.stdout.write(`LISTENING ${info.port}\n`);
});
(server as { keepAliveTimeout?: number }).keepAliveTimeout = 30_000;
process.on("SIGTERM", () => server.close(() => process.exit(0)));
