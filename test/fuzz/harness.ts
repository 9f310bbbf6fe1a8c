// The fuzz suites' target: a real Wren on loopback with two users, a status, a poll and a
// notification (so fuzzed ids sometimes name real records), every route the HTTP layer
// registers, raw requests over node:http (fetch would normalise `..` and `%2e%2e` away and
// merge duplicate headers), and a fingerprint of the data directory to prove a rejected
// request changed nothing.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { request } from "node:http";
import { join, relative } from "node:path";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { everyRoute, type Route } from "../helpers/routes.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

export interface RawRequest {
  method: string;
  /** Sent as is, not normalised. */
  path: string;
  /** In order; the same name may appear twice. */
  headers: [string, string][];
  body?: Uint8Array | undefined;
}

export interface RawResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface FuzzTarget {
  server: TestServer;
  alice: TestUser;
  bob: TestUser;
  /** Ids of real records, for path parameters. */
  ids: string[];
  routes: Route[];
  close(): Promise<void>;
}

async function json(res: Response): Promise<{ id: string } & Record<string, unknown>> {
  if (!res.ok) throw new Error(`fuzz set-up: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string } & Record<string, unknown>;
}

export async function startFuzzTarget(env: Record<string, string> = {}): Promise<FuzzTarget> {
  const server = await startTestServer({
    ...env,
    // Every fuzz run comes from one address: the limits must not turn the runs into 429s.
    WREN_RATE_LIMIT_REQUESTS: "1000000000",
    WREN_LOGIN_RATE_LIMIT_REQUESTS: "1000000000",
    WREN_LOGIN_ACCOUNT_RATE_LIMIT_REQUESTS: "1000000000",
  });
  const alice = await createUserWithToken(server, "alice");
  const bob = await createUserWithToken(server, "bob");
  const post = (user: TestUser, path: string, body: unknown) =>
    server
      .request(path, {
        method: "POST",
        token: user.token,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })
      .then(json);
  const status = await post(alice, "/api/v1/statuses", { status: "Hello @bob #fuzz" });
  const poll = await post(alice, "/api/v1/statuses", {
    status: "Which?",
    poll: { options: ["a", "b"], expires_in: 86400 },
  });
  await post(bob, `/api/v1/statuses/${status.id}/favourite`, {});
  const notifications = (await server
    .request("/api/v1/notifications", { token: alice.token })
    .then((r) => r.json())) as { id: string }[];
  const ids = [
    alice.account.id,
    bob.account.id,
    status.id,
    poll.id,
    (poll.poll as { id: string }).id,
    ...notifications.map((n) => n.id),
  ];
  return {
    server,
    alice,
    bob,
    ids,
    routes: everyRoute(server),
    close: () => server.close(),
  };
}

/** Larger than the ordinary body limit (1 MB by default). */
const OVERSIZED = 1_000_000;

export function send(url: string, req: RawRequest): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    // With headers given as a list, Node adds no Host header of its own.
    const flat = ["host", `${hostname}:${port}`, ...req.headers.flat()];
    if (req.body) flat.push("content-length", String(req.body.byteLength));
    const outgoing = request(
      {
        hostname,
        port,
        method: req.method,
        path: req.path,
        headers: flat,
        agent: false,
        maxHeaderSize: 1024 * 1024,
      },
      (res) => {
        const contentType = String(res.headers["content-type"] ?? "");
        // An event stream (the streaming API's server-sent events) never ends: the answer's
        // status and headers are what is checked.
        if (contentType.startsWith("text/event-stream")) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, contentType, body: Buffer.alloc(0) });
          return;
        }
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers["content-type"] ?? ""),
            body: Buffer.concat(chunks),
          }),
        );
        res.on("error", reject);
      },
    );
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      // A body over the limit, or headers over Node's 16 KiB, are refused while the request is
      // still being sent: the server answers 413 or 431 and closes, which the client may only
      // see as a reset.
      const headerBytes =
        req.path.length + req.headers.reduce((n, [k, v]) => n + k.length + v.length, 0);
      const oversized = (req.body?.byteLength ?? 0) > OVERSIZED || headerBytes > 16 * 1024;
      if (oversized && (error.code === "ECONNRESET" || error.code === "EPIPE")) {
        resolve({ status: 431, contentType: "", body: Buffer.alloc(0) });
      } else
        reject(
          new Error(`${error.message} (${headerBytes} header bytes): ${describeRequest(req)}`),
        );
    });
    outgoing.end(req.body);
  });
}

/** Record files only: the queue's own bookkeeping, the kv cache, lock and socket may change. */
const VOLATILE = new Set(["jobs", "kv", "wren.lock", "admin.sock"]);

/** A hash of every record file of the data directory, by path and content. */
export async function dataFingerprint(dataDir: string): Promise<string> {
  const hash = createHash("sha256");
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => relative(dataDir, join(e.parentPath, e.name)))
    .filter((path) => !VOLATILE.has(path.split("/")[0] as string))
    .sort();
  for (const path of files) {
    hash.update(path);
    hash.update(await readFile(join(dataDir, path)));
  }
  return hash.digest("hex");
}

/**
 * What is wrong with an answer, if anything: a 5xx; or, on the client API and OAuth, an error
 * that is not JSON with an `error` string (OAuth's `error_description` rides along; the sign-in
 * page answers browsers with pages). Node's own
 * parser refuses some requests (431 for huge headers, 400 for a malformed request line) with an
 * empty body before Wren sees them; those are left alone.
 */
export function problemWith(req: RawRequest, res: RawResponse): string | undefined {
  if (res.status >= 500) return `${res.status} ${res.body.toString("utf8").slice(0, 300)}`;
  if (res.status < 400) return undefined;
  if (res.body.length === 0 && (res.status === 431 || res.status === 400 || res.status === 413)) {
    return undefined;
  }
  // /oauth/authorize is the page a browser signs in on: its errors are pages too.
  const page = req.path.startsWith("/oauth/authorize");
  const api = (req.path.startsWith("/api/") || req.path.startsWith("/oauth/")) && !page;
  if (!api) return undefined;
  if (!res.contentType.startsWith("application/json")) {
    return `${res.status} error with content-type ${res.contentType}`;
  }
  try {
    const body = JSON.parse(res.body.toString("utf8")) as { error?: unknown };
    if (typeof body.error !== "string") return `${res.status} error body without an error string`;
  } catch {
    return `${res.status} error body is not JSON`;
  }
  return undefined;
}

/** Throws unless the server still answers its instance endpoint (on a fresh connection). */
export async function assertAlive(url: string): Promise<void> {
  const res = await send(url, { method: "GET", path: "/api/v1/instance", headers: [] }).catch(
    (error: Error) => {
      throw new Error(`the server stopped answering: ${error.message}`);
    },
  );
  if (res.status !== 200)
    throw new Error(`the server answers its instance endpoint with ${res.status}`);
}

/**
 * The property every fuzzed request must hold: a well-formed answer (no 5xx), no data changed
 * when the request is refused, and a server that still answers afterwards.
 */
export async function assertHandledSafely(
  url: string,
  dataDir: string,
  req: RawRequest,
  what = "request",
): Promise<void> {
  const before = await dataFingerprint(dataDir);
  const res = await send(url, req);
  const problem = problemWith(req, res);
  assert.equal(problem, undefined, `${problem}\n  ${describeRequest(req)}`);
  if (res.status >= 400) {
    assert.equal(
      await dataFingerprint(dataDir),
      before,
      `a refused ${what} (${res.status}) changed the data: ${describeRequest(req)}`,
    );
  }
  await assertAlive(url);
}

/** A request as one readable line for a failure report. */
export function describeRequest(req: RawRequest): string {
  const body = req.body ? Buffer.from(req.body).toString("utf8").slice(0, 400) : "";
  const headers = req.headers.map(([k, v]) => `${k}: ${v.slice(0, 80)}`).join(" | ");
  return `${req.method} ${req.path.slice(0, 300)} [${headers}] ${body}`;
}
