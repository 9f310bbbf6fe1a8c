// The framework's own floor: Hono behind `@hono/node-server` (the versions Wren runs on),
// answering the recorded responses the bare `node:http` server answers, with the same two
// headers, from one catch-all route and no middleware. What it costs beside the bare server is
// what Hono and its adapter alone take from any request of Wren's, before Wren's middleware and
// routes; no Wren request can do better. With `--with-wren-headers` it also sends the other
// headers Wren answered with (rate limits, CORS, caching, request id: Mastodon's, which every
// answer of the API carries): the floor of an answer of Wren's own shape. Either way the answer's
// headers are one plain record, which the adapter hands to Node in one writeHead, the cheapest
// way on them (Wren's middleware sets its own on Node's response, a setHeader each: 1% more
// instructions per answer, docs/PERFORMANCE.md "The no-op's floor, measured five ways"). Otherwise
// the same command line and `LISTENING <port>` line as bare-server.ts.

import type { IncomingMessage } from "node:http";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { type Answer, loadRecordedResponses } from "./recorded-responses.ts";

const file = process.argv[2];
if (!file) throw new Error("usage: bare-hono-server.ts <responses.json> [--with-wren-headers]");
const withWrenHeaders = process.argv.includes("--with-wren-headers");
const { answerFor } = loadRecordedResponses(file);
/** Each answer's headers as one record, made once. */
const records = new Map<Answer, Record<string, string>>();
const recordOf = (hit: Answer): Record<string, string> => {
  let record = records.get(hit);
  if (record === undefined) {
    record = {
      ...(withWrenHeaders ? Object.fromEntries(hit.headers) : {}),
      "content-type": hit.type,
      "content-length": String(hit.bytes.length),
    };
    records.set(hit, record);
  }
  return record;
};

// The adapter hands Node's request over as `incoming`: its target (path and query) is the
// recorded key, as in bare-server.ts, without building a URL.
const app = new Hono<{ Bindings: { incoming: IncomingMessage } }>();
app.all("*", (c) => {
  const { incoming } = c.env;
  const hit = answerFor(incoming.method, incoming.url, Boolean(incoming.headers.authorization));
  if (!hit) return c.body(null, 404);
  // Not c.body with two headers or more: Hono would build a web Headers object from them.
  return new Response(hit.bytes, { status: hit.status, headers: recordOf(hit) });
});

const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
  process.stdout.write(`LISTENING ${info.port}\n`);
});
(server as { keepAliveTimeout?: number }).keepAliveTimeout = 30_000;
process.on("SIGTERM", () => server.close(() => process.exit(0)));
