// How answers of the client API may be cached, as Mastodon declares it, and Wren's own short
// keeping of the public ones.
//
// Every answer under /api varies by Authorization and is `private, no-store`, except two kinds of
// successful GET:
// - an anonymous request's answer from one of the public reads Mastodon marks cacheable for the
//   unauthenticated (public and hashtag timelines, a status, its context, who boosted or
//   favourited it, an account, its statuses, followers and following, a poll): `public,
//   max-age=15`, so a proxy or CDN in front may serve it to anyone for 15 seconds;
// - the server's description (instance, its peers, rules, activity and documents, custom
//   emojis; not the blocked domains, which may depend on the token), the same for every
//   caller, signed in or not: `public, max-age=300`.
//
// Wren keeps those same answers in memory itself, and exactly: a kept answer is served only while
// the storage's version (Storage.version) is the one it was rendered at, so a new, edited or
// deleted post, a block or a new follower shows at once. The only drift is what changes with the
// clock alone (a poll's `expired`), bounded by WREN_PUBLIC_CACHE_SECONDS (at most the 15 announced).
// A burst of logged-out readers (a post shared widely, link previews, crawlers, the logged-out web
// app) between two writes then costs one rendering per page instead of one per request, and
// concurrent misses of one page share a single rendering. A signed-in request reads or fills it
// only for the server's description: what else a viewer sees depends on who they are.

import type { Context, MiddlewareHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Clock } from "../../domain/clock.ts";
import { LruCache } from "../../domain/lru-cache.ts";
import type { HttpEnv } from "../env.ts";
import { requestTarget } from "../request-target.ts";
import { responseHeader, setResponseHeaders } from "./response-headers.ts";

/** The longest time a public answer may be kept: what Mastodon announces to shared caches. */
export const PUBLIC_MAX_AGE_SECONDS = 15;

/**
 * Bounds on the memory kept answers take: a 20-status page is about 35 kB, a 40-status one
 * about 70 kB; a larger answer (a long thread's context) is rendered each time. At most 64 MB.
 */
const KEPT_ANSWERS = 500;
const LARGEST_KEPT_BYTES = 128 * 1024;

const PUBLIC_READ =
  /^\/api\/v1\/(?:timelines\/(?:public|tag\/[^/]+)|statuses\/\d+(?:\/(?:context|reblogged_by|favourited_by))?|accounts\/\d+(?:\/(?:statuses|followers|following))?|polls\/\d+)$/;

/** The server's description: no route of it looks at a token, so every caller gets one answer. */
const SHARED_READ =
  /^\/api\/(?:v1\/(?:instance(?:\/(?:peers|rules|activity|extended_description|privacy_policy|terms_of_service(?:\/[^/]+)?|translation_languages|languages))?|custom_emojis)|v2\/instance)$/;

type Announced = Readonly<Record<string, string>>;

const publicFor = (seconds: number): Announced => ({
  "Cache-Control": `public, max-age=${seconds}, stale-while-revalidate=30, stale-if-error=86400`,
  Vary: "Authorization",
});
const PRIVATE_HEADERS: Announced = { "Cache-Control": "private, no-store", Vary: "Authorization" };
const PUBLIC_HEADERS = publicFor(PUBLIC_MAX_AGE_SECONDS);
const SHARED_HEADERS = publicFor(300);

interface KeptAnswer {
  /** The storage version the answer was rendered at. */
  version: number;
  expiresAt: number;
  status: ContentfulStatusCode;
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
  /** Cache-Control, Vary and the page's Link; the rest (CORS, rate limits, ids) are per request. */
  headers: Announced;
}

export interface ApiCachingOptions {
  /** How long Wren keeps a public answer itself; 0 keeps none. */
  seconds: number;
  clock: Clock;
  /** The storage's version (Storage.version). */
  version: () => number;
}

/**
 * What a successful answer to this request is announced as, when it may be kept (and served from
 * what is kept); undefined for everything else.
 */
function publicAnnouncement(c: Context<HttpEnv>): Announced | undefined {
  // HEAD runs the GET route (Hono drops the body): announced as GET is, so a cache agrees.
  if (c.req.method !== "GET" && c.req.method !== "HEAD") return undefined;
  const path = c.req.path;
  if (SHARED_READ.test(path)) return SHARED_HEADERS;
  if (c.req.header("authorization") === undefined && PUBLIC_READ.test(path)) return PUBLIC_HEADERS;
  return undefined;
}

/** The page's identity: its path and query, not the host it was asked on. */
function keyOf(c: Context<HttpEnv>): string {
  const { path, query } = requestTarget(c);
  return query === "" ? path : `${path}?${query}`;
}

async function keep(
  c: Context<HttpEnv>,
  announced: Announced,
  version: number,
  expiresAt: number,
): Promise<KeptAnswer | undefined> {
  const res = c.res;
  if (res.status !== 200) return undefined;
  const link = responseHeader(c, "link");
  const headers = link ? { ...announced, Link: link } : announced;
  const contentType = res.headers.get("content-type") ?? "application/json";
  // A copy: the original is still to be written to this request's client.
  const body = new Uint8Array(await res.clone().arrayBuffer());
  if (body.byteLength > LARGEST_KEPT_BYTES) return undefined;
  return { version, expiresAt, status: 200, body, contentType, headers };
}

/** A public read's own answer: public when it succeeded, private otherwise (errors vary). */
function announce(c: Context<HttpEnv>, announced: Announced): void {
  setResponseHeaders(c, c.res.status === 200 ? announced : PRIVATE_HEADERS);
}

export function apiCaching(options: ApiCachingOptions): MiddlewareHandler<HttpEnv> {
  const lifetime = Math.min(options.seconds, PUBLIC_MAX_AGE_SECONDS) * 1000;
  const kept = new LruCache<string, KeptAnswer>(KEPT_ANSWERS);
  const rendering = new Map<string, Promise<KeptAnswer | undefined>>();

  // One header given to c.body (more would make Hono build a web Headers object, a few percent
  // of a kept answer's cost); the others go straight onto Node's response.
  const answer = (c: Context<HttpEnv>, found: KeptAnswer) => {
    const res = c.body(found.body, found.status, { "Content-Type": found.contentType });
    setResponseHeaders(c, found.headers);
    return res;
  };

  return async (c, next) => {
    const announced = publicAnnouncement(c);
    if (!announced) {
      await next();
      setResponseHeaders(c, PRIVATE_HEADERS);
      return;
    }
    if (lifetime === 0) {
      await next();
      announce(c, announced);
      return;
    }
    const key = keyOf(c);
    const now = options.clock.now().getTime();
    const version = options.version();
    const current = (found: KeptAnswer | undefined): found is KeptAnswer =>
      found !== undefined && found.version === version && found.expiresAt > now;
    const found = kept.get(key);
    if (current(found)) return answer(c, found);

    const pending = rendering.get(key);
    if (pending) {
      const shared = await pending;
      if (current(shared)) return answer(c, shared);
    }
    let settle: (value: KeptAnswer | undefined) => void = () => {};
    if (!pending) {
      rendering.set(
        key,
        new Promise((resolve) => {
          settle = resolve;
        }),
      );
    }
    let fresh: KeptAnswer | undefined;
    try {
      await next();
      // Keeping is an optimisation: an answer that cannot be copied is still sent, just not kept.
      fresh = await keep(c, announced, version, now + lifetime).catch(() => undefined);
      if (fresh) kept.set(key, fresh);
      announce(c, announced);
    } finally {
      if (!pending) {
        rendering.delete(key);
        settle(fresh);
      }
    }
  };
}
