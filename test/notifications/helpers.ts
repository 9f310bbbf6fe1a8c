// Shared set-up of the notification tests: a real server with a few users, actions through the
// real endpoints, and readers of the notification endpoints that check every answer against the
// Mastodon OpenAPI description.

import assert from "node:assert/strict";
import type { TestUser } from "../helpers/accounts.ts";
import { assertMatchesResponse } from "../helpers/openapi.ts";
import type { TestServer } from "../helpers/server.ts";
import { call, type Json } from "../statuses/helpers.ts";

export type { Json };
export { call };

/** POST an action path (…/favourite, …/follow) as `user`, expecting 200. */
export function act(server: TestServer, user: TestUser, path: string, json?: unknown) {
  return call(server, "POST", path, { token: user.token, json });
}

export function postStatus(
  server: TestServer,
  user: TestUser,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<Json> {
  return act(server, user, "/api/v1/statuses", { status: text, ...extra });
}

/** GET /api/v1/notifications (with a query string) as `user`. */
export function notifications(server: TestServer, user: TestUser, query = ""): Promise<Json[]> {
  return call(server, "GET", `/api/v1/notifications${query}`, { token: user.token });
}

/** The recipient's notifications as `[type, sender username]` pairs, newest first. */
export async function summary(server: TestServer, user: TestUser): Promise<string[]> {
  return (await notifications(server, user)).map(
    (n: Json) => `${n.type}:${n.account.username}${n.status ? `:${n.status.id}` : ""}`,
  );
}

/** GET on API v2, the body validated against the grouped notifications entity. */
export async function callV2(
  server: TestServer,
  user: TestUser,
  path: string,
  expected = 200,
): Promise<Json> {
  const res = await server.request(path, { token: user.token });
  const body: Json = await res.json();
  assert.equal(res.status, expected, `GET ${path}: ${JSON.stringify(body)}`);
  // A string, as documented (our ids exceed what a JSON number carries exactly), of digits.
  for (const group of body.notification_groups ?? []) {
    assert.match(group.most_recent_notification_id, /^[0-9]+$/);
  }
  assertMatchesResponse("GET", path.split("?")[0] as string, res.status, body);
  return body;
}

/** Link header targets by rel. */
export function links(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (res.headers.get("link") ?? "").split(",")) {
    const match = /<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
    if (match) out[match[2] as string] = match[1] as string;
  }
  return out;
}

/** An endpoint documented as answering an empty object (dismiss, clear): 200 and `{}`. */
export async function callEmpty(
  server: TestServer,
  user: TestUser,
  path: string,
  expected = 200,
): Promise<Json> {
  const res = await server.request(path, { method: "POST", token: user.token });
  const body: Json = await res.json();
  assert.equal(res.status, expected, `POST ${path}: ${JSON.stringify(body)}`);
  if (expected === 200) assert.deepEqual(body, {});
  else assert.equal(typeof body.error, "string");
  return body;
}
