// Shared set-up of the interaction tests: a real server, a few users with the relations the
// visibility rules look at, statuses written through the storage ports, and small request
// helpers that check every answer against the Mastodon OpenAPI description.

import assert from "node:assert/strict";
import type { Visibility } from "../../src/domain/account.ts";
import { createUserWithToken, type TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse, assertMatchesSchema } from "../helpers/openapi.ts";
import type { TestServer } from "../helpers/server.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked against the OpenAPI schema
export type Json = any;

export interface Cast {
  /** Writes the statuses. */
  alice: TestUser;
  /** Follows alice. */
  bob: TestUser;
  /** Neither follows nor is mentioned. */
  carol: TestUser;
}

export async function createCast(server: TestServer, prefix = ""): Promise<Cast> {
  const alice = await createUserWithToken(server, `${prefix}alice`);
  const bob = await createUserWithToken(server, `${prefix}bob`);
  const carol = await createUserWithToken(server, `${prefix}carol`);
  await follow(server, bob, alice);
  return { alice, bob, carol };
}

/** POST /api/v1/accounts/:id/<action> (follow, unfollow, block, mute…) as `from`. */
export async function accountAction(
  server: TestServer,
  from: TestUser,
  to: TestUser,
  action: string,
): Promise<void> {
  const res = await server.request(`/api/v1/accounts/${to.account.id}/${action}`, {
    method: "POST",
    token: from.token,
  });
  assert.equal(res.status, 200, `${action} ${to.account.username}: ${await res.text()}`);
}

export const follow = (server: TestServer, from: TestUser, to: TestUser) =>
  accountAction(server, from, to, "follow");
export const block = (server: TestServer, from: TestUser, to: TestUser) =>
  accountAction(server, from, to, "block");
export const mute = (server: TestServer, from: TestUser, to: TestUser) =>
  accountAction(server, from, to, "mute");

export interface PostOptions {
  /** The text; mention accounts with `@username`. */
  text?: string;
  inReplyToId?: string;
}

/** Posts a status as `author` through POST /api/v1/statuses; answers the Status JSON. */
export async function makeStatus(
  server: TestServer,
  author: TestUser,
  visibility: Visibility = "public",
  options: PostOptions = {},
): Promise<Json> {
  const body: Record<string, string> = { status: options.text ?? "hello", visibility };
  if (options.inReplyToId) body.in_reply_to_id = options.inReplyToId;
  const res = await server.request("/api/v1/statuses", {
    method: "POST",
    token: author.token,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json: Json = await res.json();
  assert.equal(res.status, 200, `POST /api/v1/statuses: ${JSON.stringify(json)}`);
  return json;
}

/** Deletes a status through DELETE /api/v1/statuses/:id. */
export async function deleteStatus(server: TestServer, author: TestUser, id: string) {
  const res = await server.request(`/api/v1/statuses/${id}`, {
    method: "DELETE",
    token: author.token,
  });
  assert.equal(res.status, 200, `DELETE /api/v1/statuses/${id}: ${await res.text()}`);
}

/**
 * Checks an answer against the spec. The spec describes every 422 of these endpoints as a
 * ValidationError with `details`, but Mastodon answers them (record validations, app tokens on
 * user routes) with a bare `{"error": …}`, which we follow; those are checked as Error.
 */
export function assertMatchesAnswer(
  method: string,
  path: string,
  status: number,
  body: unknown,
): void {
  if (status === 422) assertMatchesSchema(body, "Error");
  else assertMatchesResponse(method, path.split("?")[0] as string, status, body);
}

/** POSTs a status action and checks the answer against the spec. */
export async function act(
  server: TestServer,
  user: TestUser | string | null,
  statusId: string,
  action: string,
  body?: Record<string, string>,
): Promise<{ status: number; body: Json }> {
  const path = `/api/v1/statuses/${statusId}/${action}`;
  const init: RequestInit & { token?: string } = { method: "POST" };
  if (user !== null) init.token = typeof user === "string" ? user : user.token;
  if (body) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json" };
  }
  const res = await server.request(path, init);
  const json: Json = await res.json();
  assertMatchesAnswer("POST", path, res.status, json);
  return { status: res.status, body: json };
}

/** POSTs an action that must succeed; answers the Status JSON. */
export async function actOk(
  server: TestServer,
  user: TestUser,
  statusId: string,
  action: string,
  body?: Record<string, string>,
): Promise<Json> {
  const res = await act(server, user, statusId, action, body);
  assert.equal(res.status, 200, `${action} ${statusId}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The status as `user` (or an anonymous client) sees it through GET /api/v1/statuses/:id. */
export async function view(
  server: TestServer,
  user: TestUser | null,
  statusId: string,
): Promise<Json> {
  const path = `/api/v1/statuses/${statusId}`;
  const res = await server.request(path, user ? { token: user.token } : {});
  const json: Json = await res.json();
  assert.equal(res.status, 200, `GET ${path}: ${JSON.stringify(json)}`);
  assertMatchesResponse("GET", path, 200, json);
  return json;
}

export interface Flags {
  favourited?: boolean;
  reblogged?: boolean;
  bookmarked?: boolean;
  muted?: boolean;
  pinned?: boolean;
}

/** Asserts the per-viewer flags that are given; `pinned: undefined` is not checked. */
export function assertFlags(json: Json, expected: Flags, label = ""): void {
  for (const [key, value] of Object.entries(expected)) {
    assert.equal(json[key], value, `${label} ${key}`);
  }
}

/** Parses a Link header into its `next` and `prev` paths (relative to the server). */
export function links(res: Response): { next?: string; prev?: string } {
  const header = res.headers.get("link");
  const out: { next?: string; prev?: string } = {};
  if (!header) return out;
  for (const part of header.split(",")) {
    const match = /<([^>]+)>;\s*rel="(next|prev)"/.exec(part.trim());
    if (match) {
      const url = new URL(match[1] as string);
      out[match[2] as "next" | "prev"] = url.pathname + url.search;
    }
  }
  return out;
}

/** GETs a list path and checks it against the spec. */
export async function getList(
  server: TestServer,
  user: TestUser | null,
  path: string,
): Promise<{ res: Response; body: Json[] }> {
  const res = await server.request(path, user ? { token: user.token } : {});
  const body: Json = await res.json();
  assertMatchesAnswer("GET", path, res.status, body);
  assert.equal(res.status, 200, `GET ${path}: ${JSON.stringify(body)}`);
  return { res, body };
}

/**
 * Follows `next` links from `start` until a page comes back empty; then follows `prev` links from
 * the last page back up. Answers the ids met in each direction.
 */
export async function walk(
  server: TestServer,
  user: TestUser | null,
  start: string,
): Promise<{ down: string[]; up: string[]; pages: number }> {
  const down: string[] = [];
  let path: string | undefined = start;
  let pages = 0;
  let lastPrev: string | undefined;
  let lastPage: string[] = [];
  while (path) {
    const { res, body }: { res: Response; body: Json[] } = await getList(server, user, path);
    pages++;
    assert.ok(pages < 100, "pagination does not end");
    if (body.length === 0) break;
    lastPage = body.map((item: Json) => item.id as string);
    down.push(...lastPage);
    lastPrev = links(res).prev;
    path = links(res).next;
  }
  // Walking back up from the oldest page: each prev link points at the items just newer.
  const up: string[] = [...lastPage];
  path = lastPrev;
  while (path) {
    const { res, body }: { res: Response; body: Json[] } = await getList(server, user, path);
    pages++;
    assert.ok(pages < 200, "pagination does not end");
    if (body.length === 0) break;
    up.unshift(...body.map((item: Json) => item.id as string));
    path = links(res).prev;
  }
  return { down, up, pages };
}
