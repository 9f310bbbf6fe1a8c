// Shared set-up of the status tests: posting through the real endpoint, and small request
// helpers that check every answer against the Mastodon OpenAPI description.

import assert from "node:assert/strict";
import type { TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import type { TestServer } from "../helpers/server.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
export type Json = any;

/** Sends a request and checks the status code and the body against the OpenAPI description. */
export async function call(
  server: TestServer,
  method: string,
  path: string,
  options: { token?: string | undefined; json?: unknown; headers?: Record<string, string> } = {},
  expected = 200,
): Promise<Json> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
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
  const json: Json = await res.json();
  assert.equal(res.status, expected, `${method} ${path}: ${JSON.stringify(json)}`);
  assertMatchesResponse(method, path.split("?")[0] as string, res.status, json);
  assertNoDeletedKey(json);
  return json;
}

/** The internal flag must never reach a client, at any depth. */
export function assertNoDeletedKey(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) assertNoDeletedKey(item);
  } else if (value !== null && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) {
      assert.ok(key !== "deleted" && key !== "deleted_at", `internal key ${key} leaked`);
      assertNoDeletedKey(inner);
    }
  }
}

/** Posts a status as `user` (JSON body) and returns the Status entity. */
export function post(
  server: TestServer,
  user: TestUser,
  params: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Json> {
  return call(server, "POST", "/api/v1/statuses", { token: user.token, json: params, headers });
}

export async function follow(server: TestServer, from: TestUser, to: TestUser): Promise<void> {
  const ctx = server.wren.ctx;
  await ctx.storage.follows.put({
    id: ctx.ids.next(),
    accountId: from.account.id,
    targetId: to.account.id,
    createdAt: ctx.clock.now().toISOString(),
    showReblogs: true,
    notify: false,
    languages: null,
    uri: null,
  });
}
