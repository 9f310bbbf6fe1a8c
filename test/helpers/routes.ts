// Every route Wren answers, as one list for the tests that walk them all (the fuzz suites, the
// trailing-slash test): the methods and paths the HTTP layer registers, read from its route
// modules, plus the paths the federation (Fedify) serves, which no route module declares.

import { createApp } from "../../src/http/app.ts";
import type { TestServer } from "./server.ts";

export interface Route {
  method: string;
  /** Hono's pattern: `:name`, `:name{regex}` and `*` segments. */
  path: string;
}

/** Served by the federation (Fedify and the documents beside it), not by a route module. */
export const FEDERATION_ROUTES: readonly Route[] = [
  { method: "POST", path: "/inbox" },
  { method: "POST", path: "/users/:username/inbox" },
  { method: "GET", path: "/users/:username/outbox" },
  { method: "GET", path: "/users/:username/followers" },
  { method: "GET", path: "/users/:username/following" },
  { method: "GET", path: "/users/:username/collections/featured" },
  { method: "GET", path: "/users/:username/collections/tags" },
  { method: "GET", path: "/users/:username/statuses/:id/activity" },
  { method: "GET", path: "/users/:username/statuses/:id/replies" },
  { method: "GET", path: "/users/:username/statuses/:id/likes" },
  { method: "GET", path: "/users/:username/statuses/:id/shares" },
  { method: "GET", path: "/.well-known/webfinger" },
  { method: "GET", path: "/.well-known/nodeinfo" },
  { method: "GET", path: "/.well-known/host-meta" },
  { method: "GET", path: "/nodeinfo/2.0" },
  { method: "GET", path: "/nodeinfo/2.1" },
];

/** Every method and path the app registers (CORS preflights and catch-alls aside), then the federation's. */
export function everyRoute(server: TestServer): Route[] {
  const app = createApp({
    ctx: server.wren.ctx,
    trustedProxies: [],
    mediaDirectory: null,
    publicCacheSeconds: 0,
    limits: {
      bodyBytes: 1,
      uploadBytes: 1,
      rateLimit: { requests: 1, windowSeconds: 1 },
      loginRateLimit: { requests: 1, windowSeconds: 1 },
      loginAccountRateLimit: { requests: 1, windowSeconds: 1 },
      accountRateLimit: { requests: 1, windowSeconds: 1 },
      maxTrackedKeys: 1,
      statusBudget: { requests: 1, windowSeconds: 1 },
      mediaBudget: { requests: 1, windowSeconds: 1 },
      followBudget: { requests: 1, windowSeconds: 1 },
      inboxPerAddress: { requests: 1, windowSeconds: 1 },
      inboxPerSender: { requests: 1, windowSeconds: 1 },
    },
  });
  const seen = new Set<string>();
  const routes: Route[] = [];
  for (const { method, path } of [...app.routes, ...FEDERATION_ROUTES]) {
    if (method === "ALL" || method === "OPTIONS" || seen.has(`${method} ${path}`)) continue;
    seen.add(`${method} ${path}`);
    routes.push({ method, path });
  }
  return routes;
}

/** A `:name` parameter with its optional `{regex}` (which may hold a `/`), or a `*` segment. */
const PARAMETER = /:(\w+)(?:\{[^}]*\})?|(?<=\/)\*(?=\/|$)/g;

/**
 * The route's path with each parameter replaced by `valueFor(name)` (`*` for a wildcard); a
 * `:handle` (the web profile's `@user`) gets its `@` when the value has none.
 */
export function fillPath(template: string, valueFor: (name: string) => string): string {
  return template.replace(PARAMETER, (_match, name: string | undefined) => {
    const value = valueFor(name ?? "*");
    return name === "handle" && !value.startsWith("@") ? `@${value}` : value;
  });
}
