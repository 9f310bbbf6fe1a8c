// Request helpers for the media endpoint tests: multipart uploads and JSON calls whose answers
// are checked against the Mastodon OpenAPI description (MediaAttachment bodies by schema where
// the description documents a status without a body, such as 206).

import assert from "node:assert/strict";
import type { TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import type { TestServer } from "../helpers/server.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
export type Json = any;

export interface UploadFile {
  bytes: Uint8Array;
  name: string;
  /** What the client claims; the server must not believe it. */
  type: string;
}

export function form(
  files: Record<string, UploadFile>,
  fields: Record<string, string> = {},
): FormData {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  for (const [key, file] of Object.entries(files)) {
    body.append(key, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  }
  return body;
}

/**
 * Validates against the OpenAPI file, except where it does not describe what Mastodon answers:
 * 206 on GET/PUT /api/v1/media/:id (documented without a body: checked as a MediaAttachment),
 * PUT /api/v1/media (the upload the specification names, absent from Mastodon's file), the empty
 * `{}` of a DELETE, and DELETE's 422 (the file says ValidationError with `details`; Mastodon's
 * controller answers a plain `{"error": …}`, and Wren follows Mastodon).
 */
function checkBody(method: string, path: string, status: number, json: unknown): void {
  const media = path.startsWith("/api/v1/media/");
  const upload = method === "PUT" && path === "/api/v1/media";
  if (status < 400 && ((media && status === 206) || upload)) {
    assertMatchesSchema(json, "MediaAttachment");
  } else if (media && method === "DELETE" && status === 200) {
    assert.deepEqual(json, {});
  } else if (media && method === "DELETE" && status === 422) {
    assertMatchesSchema(json, "Error");
  } else {
    assertMatchesResponse(method, path, status, json);
  }
}

/** Sends a request, checks the status code and validates the body. */
export async function send(
  server: TestServer,
  method: string,
  path: string,
  options: { token?: string | undefined; body?: FormData; json?: unknown },
  expected: number,
): Promise<Json> {
  const headers: Record<string, string> = {};
  let body: FormData | string | undefined = options.body;
  if (options.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.json);
  }
  const res = await server.request(path, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(options.token ? { token: options.token } : {}),
  });
  const text = await res.text();
  const json: Json = text === "" ? undefined : JSON.parse(text);
  assert.equal(res.status, expected, `${method} ${path}: ${text}`);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  checkBody(method, path.split("?")[0] as string, res.status, json);
  return json;
}

export function upload(
  server: TestServer,
  user: TestUser,
  files: Record<string, UploadFile>,
  fields: Record<string, string> = {},
  options: { path?: string; method?: string; expected?: number } = {},
): Promise<Json> {
  return send(
    server,
    options.method ?? "POST",
    options.path ?? "/api/v2/media",
    { token: user.token, body: form(files, fields) },
    options.expected ?? 200,
  );
}

/** Fetches a published file by its URL; returns the bytes and the response. */
export async function fetchFile(url: string): Promise<{ res: Response; bytes: Uint8Array }> {
  const res = await fetch(url);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** A short mono 16-bit PCM WAV tone: a real audio file, processed in the background. */
export function wavTone(seconds = 0.5, rate = 8000): Uint8Array {
  const samples = Math.round(seconds * rate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(Math.sin((i / rate) * 2 * Math.PI * 440) * 12000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return new Uint8Array(Buffer.concat([header, data]));
}
