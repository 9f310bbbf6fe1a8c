// Request helpers of the hashtag tests: every answer is checked against Mastodon's entity
// definitions (test/schemas/operations.ts; errors as Error).

import assert from "node:assert/strict";
import type { TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import type { TestServer } from "../helpers/server.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
export type Json = any;

export interface Answer {
  status: number;
  body: Json;
  headers: Headers;
}

/** Any API call, its answer checked against the spec (a 4xx as a bare `{"error"}`). */
export async function call(
  server: TestServer,
  method: string,
  path: string,
  user: TestUser | string | null,
  body?: Record<string, unknown>,
): Promise<Answer> {
  const init: RequestInit & { token?: string } = { method };
  if (user !== null) init.token = typeof user === "string" ? user : user.token;
  if (body) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json" };
  }
  const res = await server.request(path, init);
  const json: Json = await res.json();
  if (res.status >= 400) {
    assertMatchesSchema(json, "Error");
    assert.equal(typeof json.error, "string");
  } else {
    assertMatchesResponse(method, path.split("?")[0] as string, res.status, json);
  }
  return { status: res.status, body: json, headers: res.headers };
}

export async function ok(
  server: TestServer,
  method: string,
  path: string,
  user: TestUser | string | null,
  body?: Record<string, unknown>,
): Promise<Json> {
  const answer = await call(server, method, path, user, body);
  assert.equal(answer.status, 200, `${method} ${path}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function post(
  server: TestServer,
  author: TestUser,
  text: string,
  visibility = "public",
) {
  return ok(server, "POST", "/api/v1/statuses", author, { status: text, visibility });
}
