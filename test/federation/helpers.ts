// Shared pieces of the federation tests: ActivityPub requests over real HTTP.

import assert from "node:assert/strict";
import type { TestServer } from "../helpers/server.ts";

// biome-ignore lint/suspicious/noExplicitAny: ActivityPub documents are checked field by field.
export type Json = any;

export const AP_ACCEPT = "application/activity+json";

/** GETs a path (or absolute URL) as a peer would and returns status, headers and JSON body. */
export async function apGet(
  server: TestServer,
  path: string,
  accept = AP_ACCEPT,
): Promise<{ status: number; type: string; body: Json }> {
  const res = await server.request(path, { headers: { accept } });
  const text = await res.text();
  let body: Json = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, type: res.headers.get("content-type") ?? "", body };
}

/** GETs an ActivityPub document that must exist. */
export async function apDocument(server: TestServer, path: string): Promise<Json> {
  const res = await apGet(server, path);
  assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
  assert.match(res.type, /^application\/activity\+json/);
  return res.body;
}
