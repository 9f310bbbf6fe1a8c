// The reference server: bare `node:http` answering recorded responses from memory. Started as
// its own process by the bench; reads `{ "<METHOD> <path>[ (signed in)]": { status, type,
// body(base64) } }` from the file named on the command line and prints `LISTENING <port>` once
// ready. Unknown requests get the response recorded under "* *" (the same bytes for every request
// of a write scenario whose paths vary).

import { readFileSync } from "node:fs";
import { createServer } from "node:http";

interface Recorded {
  status: number;
  type: string;
  body: string;
}

const file = process.argv[2];
if (!file) throw new Error("usage: bare-server.ts <responses.json>");
const recorded = JSON.parse(readFileSync(file, "utf8")) as Record<string, Recorded>;
const responses = new Map(
  Object.entries(recorded).map(([key, r]) => [key, { ...r, bytes: Buffer.from(r.body, "base64") }]),
);
const fallback = responses.get("* *");

const server = createServer((req, res) => {
  // Read the body like a real server would before answering.
  req.resume();
  req.on("end", () => {
    const signedIn = req.headers.authorization ? " (signed in)" : "";
    const hit = responses.get(`${req.method} ${req.url}${signedIn}`) ?? fallback;
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
