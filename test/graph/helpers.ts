// Small request helpers for the social graph tests: JSON in, status and parsed body out.

import type { TestUser } from "../helpers/accounts.ts";
import type { TestServer } from "../helpers/server.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
export type Json = any;

export interface Answer {
  status: number;
  body: Json;
  headers: Headers;
}

export async function call(
  server: TestServer,
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  path: string,
  token?: string,
  body?: Record<string, unknown>,
): Promise<Answer> {
  const init: RequestInit & { token?: string } = { method };
  if (token) init.token = token;
  if (body) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json" };
  }
  const res = await server.request(path, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** `viewer`'s relationship to `other`, as `GET /api/v1/accounts/relationships` answers it. */
export async function relationshipOf(
  server: TestServer,
  viewer: TestUser,
  other: TestUser,
): Promise<Json> {
  const res = await call(
    server,
    "GET",
    `/api/v1/accounts/relationships?id[]=${other.account.id}`,
    viewer.token,
  );
  return res.body[0];
}

/** A clock the test moves by hand. */
export function manualClock(start = "2025-01-01T00:00:00.000Z") {
  let now = Date.parse(start);
  return {
    now: () => new Date(now),
    advance(seconds: number) {
      now += seconds * 1000;
    },
  };
}

/** The `rel` → URL map of a Link header. */
export function parseLink(header: string | null): Record<string, URL> {
  const links: Record<string, URL> = {};
  for (const part of (header ?? "").split(",")) {
    const match = /<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
    if (match) links[match[2] as string] = new URL(match[1] as string);
  }
  return links;
}
