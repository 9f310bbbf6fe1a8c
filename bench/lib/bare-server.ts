// The reference server: bare `node:http` answering the responses recorded from Wren
// (recorded-responses.ts) from memory. Started as its own process by the bench with the
// recording's file on the command line; prints `LISTENING <port>` once ready.

import { createServer } from "node:http";
import { loadRecordedResponses } from "./recorded-responses.ts";

const file = process.argv[2];
if (!file) throw new Error("usage: bare-server.ts <responses.json>");
const { answerFor } = loadRecordedResponses(file);

const server = createServer((req, res) => {
  // Read the body like a real server would before answering.
  req.resume();
  req.on("end", () => {
    const hit = answerFor(req.method, req.url, Boolean(req.headers.authorization));
    if (!hit) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(hit.status, { "content-type": hit.type, "content-length": hit.bytes.length });
    res.end(hit.bytes);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address && typeof address === "object") process.stdout.write(`LISTENING ${address.port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
