// The reference server: bare `node:http` answering the responses recorded from Wren
// (recorded-responses.ts) from memory. Started as its own process by the bench with the
// recording's file on the command line; prints `LISTENING <port>` once ready. With
// `--with-wren-headers` (the framework floor's) it also sends Wren's other headers, all given to
// one writeHead as a flat list, the cheapest way Node's http server takes them: what those
// headers alone cost a server doing nothing else.

import { createServer } from "node:http";
import { type Answer, loadRecordedResponses } from "./recorded-responses.ts";

const file = process.argv[2];
if (!file) throw new Error("usage: bare-server.ts <responses.json> [--with-wren-headers]");
const withWrenHeaders = process.argv.includes("--with-wren-headers");
const { answerFor } = loadRecordedResponses(file);
/** Each answer's whole head as one flat list, made once. */
const heads = new Map<Answer, string[]>();
const headOf = (hit: Answer): string[] => {
  let head = heads.get(hit);
  if (head === undefined) {
    head = [
      ...hit.headers.flat(),
      "content-type",
      hit.type,
      "content-length",
      String(hit.bytes.length),
    ];
    heads.set(hit, head);
  }
  return head;
};

const server = createServer((req, res) => {
  // Read the body like a real server would before answering.
  req.resume();
  req.on("end", () => {
    const hit = answerFor(req.method, req.url, Boolean(req.headers.authorization));
    if (!hit) {
      res.writeHead(404).end();
      return;
    }
    if (withWrenHeaders) {
      res.writeHead(hit.status, headOf(hit));
    } else {
      res.writeHead(hit.status, { "content-type": hit.type, "content-length": hit.bytes.length });
    }
    res.end(hit.bytes);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") process.stdout.write(`LISTENING ${address.port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
