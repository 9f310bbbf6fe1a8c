// The responses Wren gave to a comparison's probes, recorded once (compare.ts) for the reference
// servers (bare-server.ts, bare-hono-server.ts) to answer byte for byte: `{ "<METHOD> <target>[
// (signed in)]": { status, type, body(base64), headers } }`, a request target being a path and
// query, `headers` the rest of Wren's (recordedHeaders says which), which only the framework
// floor's "with Wren's headers" server sends.
// Unknown requests get the response recorded under "* *" (the same bytes for every request of a
// write scenario whose paths vary).

import { readFileSync } from "node:fs";

export interface RecordedResponse {
  status: number;
  type: string;
  body: string;
  headers?: [string, string][];
}

export interface Answer {
  status: number;
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
  headers: [string, string][];
}

/** Headers every server writes itself (date, connection) or the references always send. */
const SERVERS_OWN = new Set([
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-type",
  "content-length",
]);

/**
 * Wren's headers worth replaying: all but those every server writes itself (the date, the
 * connection's) and the two the reference servers always send (type, length).
 */
export function recordedHeaders(headers: Headers): [string, string][] {
  return [...headers].filter(([name]) => !SERVERS_OWN.has(name));
}

export function loadRecordedResponses(file: string): {
  answerFor(
    method: string | undefined,
    target: string | undefined,
    signedIn: boolean,
  ): Answer | undefined;
} {
  const recorded = JSON.parse(readFileSync(file, "utf8")) as Record<string, RecordedResponse>;
  const answers = new Map<string, Answer>(
    Object.entries(recorded).map(([key, r]) => [
      key,
      {
        status: r.status,
        type: r.type,
        bytes: new Uint8Array(Buffer.from(r.body, "base64")),
        headers: r.headers ?? [],
      },
    ]),
  );
  const fallback = answers.get("* *");
  return {
    answerFor: (method, target, signedIn) =>
      answers.get(`${method} ${target}${signedIn ? " (signed in)" : ""}`) ?? fallback,
  };
}
