// Shared steps of the timeline tests: statuses posted through the API (or written through the
// storage ports for what no endpoint makes yet: media, remote authors), follows through the API,
// and page fetching that follows Link headers.

import assert from "node:assert/strict";
import type { Account } from "../../src/domain/account.ts";
import type { Status } from "../../src/domain/status.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import { statusRecord } from "../helpers/records.ts";
import type { TestServer } from "../helpers/server.ts";

export interface StatusJsonLike {
  id: string;
  visibility: string;
  reblog: { id: string } | null;
  account: { id: string };
  [key: string]: unknown;
}

export async function putStatus(
  server: TestServer,
  author: Account,
  overrides: Partial<Status> = {},
): Promise<Status> {
  const base = statusRecord(server, author);
  const status: Status = { ...base, conversationId: base.id, ...overrides };
  await server.wren.ctx.storage.statuses.put(status);
  return status;
}

export async function post(
  server: TestServer,
  token: string,
  path: string,
  body: Record<string, unknown> = {},
): Promise<unknown> {
  const res = await server.request(path, {
    method: "POST",
    token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  assert.equal(res.status, 200, `${path}: ${JSON.stringify(json)}`);
  return json;
}

export function follow(
  server: TestServer,
  token: string,
  target: Account,
  options: Record<string, unknown> = {},
) {
  return post(server, token, `/api/v1/accounts/${target.id}/follow`, options);
}

export interface Page {
  status: number;
  body: StatusJsonLike[];
  next: string | null;
  prev: string | null;
}

/** Parses `<url>; rel="next", <url>; rel="prev"` into path+query strings. */
export function parseLink(header: string | null): { next: string | null; prev: string | null } {
  const out = { next: null as string | null, prev: null as string | null };
  if (!header) return out;
  for (const part of header.split(",")) {
    const match = /<([^>]+)>;\s*rel="(next|prev)"/.exec(part.trim());
    if (!match) continue;
    const url = new URL(match[1] as string);
    out[match[2] as "next" | "prev"] = url.pathname + url.search;
  }
  return out;
}

/** GET a status list, asserting 200 and the OpenAPI response schema. */
export async function getList(server: TestServer, path: string, token?: string): Promise<Page> {
  const res = await server.request(path, token ? { token } : {});
  const body = (await res.json()) as StatusJsonLike[];
  assert.equal(res.status, 200, `${path}: ${JSON.stringify(body)}`);
  assertMatchesResponse("GET", path, 200, body);
  return { status: res.status, body, ...parseLink(res.headers.get("link")) };
}

export const ids = (page: { body: StatusJsonLike[] }) => page.body.map((s) => s.id);

/** Strictly decreasing numeric ids (newest first, no repeats). */
export function assertNewestFirst(list: readonly string[], label: string): void {
  for (let i = 1; i < list.length; i++) {
    const a = BigInt(list[i - 1] as string);
    const b = BigInt(list[i] as string);
    assert.ok(a > b, `${label}: ${list[i - 1]} before ${list[i]} is not newest first`);
  }
}

/** POST /api/v1/statuses as the token's user; answers the created Status JSON. */
export async function postStatus(
  server: TestServer,
  token: string,
  body: Record<string, unknown>,
): Promise<StatusJsonLike> {
  return (await post(server, token, "/api/v1/statuses", body)) as StatusJsonLike;
}

/** Test servers for timeline walks make many requests; lift the per-token rate limit. */
export const MANY_REQUESTS = { WREN_RATE_LIMIT_REQUESTS: "100000" };
