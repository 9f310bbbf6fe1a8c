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
// concurrent misses of one page share a single rendering.
//
// Signed-in answers of a short list of reads (VIEWER_READ: timelines, a status and its context,
// an account's statuses, relationships, notifications) are kept the same way, per token (ADR 60):
// still `private, no-store` to everyone else, and served only to a request whose token was
// verified at the version the answer was rendered at, so a revoked token, a new favourite, mute,
// block, follow or filter of the viewer's, or anyone's write, is seen by the next request. Every
// middleware runs as before (the rate limits, the token check and the day's activity mark);
// only the handler is skipped. What changes with the clock alone is bounded by
// WREN_SIGNED_IN_CACHE_SECONDS and never outlives the next end of one of the viewer's filters or
// mutes. A request asking `Cache-Control: no-cache` is rendered, whoever asks.

import type { Context, MiddlewareHandler } from "hono";
import type { Clock } from "../../domain/clock.ts";
import type { HttpEnv, Viewer } from "../env.ts";
import { requestTarget } from "../request-target.ts";
import { type Announced, KeptAnswers, wantsRendering } from "./kept-answers.ts";
import { setResponseHeaders } from "./response-headers.ts";

/** The longest time a public answer may be kept: what Mastodon announces to shared caches. */
export const PUBLIC_MAX_AGE_SECONDS = 15;

/**
 * Bounds on the memory kept public answers take: a 20-status page is about 35 kB, a 40-status
 * one about 70 kB; a larger answer (a long thread's context) is rendered each time. At most 64 MB.
 */
const PUBLIC_BOUNDS = { count: 500, bytes: 64 * 1024 * 1024, largest: 128 * 1024 };

const PUBLIC_READ =
  /^\/api\/v1\/(?:timelines\/(?:public|tag\/[^/]+)|statuses\/\d+(?:\/(?:context|reblogged_by|favourited_by))?|accounts\/\d+(?:\/(?:statuses|followers|following))?|polls\/\d+)$/;

/** The server's description: no route of it looks at a token, so every caller gets one answer. */
const SHARED_READ =
  /^\/api\/(?:v1\/(?:instance(?:\/(?:peers|rules|activity|extended_description|privacy_policy|terms_of_service(?:\/[^/]+)?|translation_languages|languages))?|custom_emojis)|v2\/instance)$/;

/**
 * The signed-in reads kept per token (ADR 60): side-effect-free GETs whose answer depends on
 * nothing but the stored records, the token and the clock, and that apps ask again and again.
 */
const VIEWER_READ =
  /^\/api\/v1\/(?:timelines\/(?:home|public|tag\/[^/]+|list\/\d+)|statuses\/\d+(?:\/context)?|accounts\/(?:relationships|\d+\/statuses)|notifications)$/;

const publicFor = (seconds: number): Announced => ({
  "Cache-Control": `public, max-age=${seconds}, stale-while-revalidate=30, stale-if-error=86400`,
  Vary: "Authorization",
});
const PRIVATE_HEADERS: Announced = { "Cache-Control": "private, no-store", Vary: "Authorization" };
const PUBLIC_HEADERS = publicFor(PUBLIC_MAX_AGE_SECONDS);
const SHARED_HEADERS = publicFor(300);

/** Signed-in answers kept per token; see ADR 60. */
export interface ViewerKeeping {
  /** How long at most (0 keeps none). */
  seconds: number;
  /** What the kept answers may weigh together. */
  bytes: number;
  /** The request's verified caller (middleware/caller.ts). */
  caller(c: Context<HttpEnv>): Viewer | null | Promise<Viewer | null>;
  /** The storage version the request's token lookup began at (middleware/caller.ts). */
  callerVersion(c: Context<HttpEnv>): number | undefined;
  /**
   * The next instant (clock ms) at which what the viewer is shown changes with the clock alone
   * (one of their filters or mutes ends); Infinity when none will.
   */
  lapse(viewer: Viewer): number | Promise<number>;
}

/** Answers kept per token: a viewer's home, a few pages deep, for a few thousand viewers. */
const VIEWER_COUNT = 5_000;
const VIEWER_LARGEST = 128 * 1024;

export interface ApiCachingOptions {
  /** How long Wren keeps a public answer itself; 0 keeps none. */
  seconds: number;
  clock: Clock;
  /** The storage's version (Storage.version). */
  version: () => number;
  /** Signed-in answers of VIEWER_READ; none kept without. */
  viewers?: ViewerKeeping;
}

/**
 * What a successful answer to this request is announced as, when it may be kept (and served from
 * what is kept) for every caller alike; undefined for everything else.
 */
function publicAnnouncement(c: Context<HttpEnv>): Announced | undefined {
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

/** A public read's own answer: public when it succeeded, private otherwise (errors vary). */
function announce(c: Context<HttpEnv>, announced: Announced): void {
  setResponseHeaders(c, c.res.status === 200 ? announced : PRIVATE_HEADERS);
}

/** HEAD runs the GET route (Hono drops the body): answered as GET is, so a cache agrees. */
const READS = new Set(["GET", "HEAD"]);

export function apiCaching(options: ApiCachingOptions): MiddlewareHandler<HttpEnv> {
  const lifetime = Math.min(options.seconds, PUBLIC_MAX_AGE_SECONDS) * 1000;
  const publicAnswers = new KeptAnswers(PUBLIC_BOUNDS);
  const viewers = options.viewers;
  const viewerLifetime = viewers ? viewers.seconds * 1000 : 0;
  const viewerAnswers =
    viewers && viewerLifetime > 0
      ? new KeptAnswers({ count: VIEWER_COUNT, bytes: viewers.bytes, largest: VIEWER_LARGEST })
      : undefined;

  /** The signed-in answer, from what is kept for this token when it may be. */
  const forViewer = async (
    c: Context<HttpEnv>,
    next: () => Promise<void>,
    keeping: ViewerKeeping,
    answers: KeptAnswers,
  ): Promise<Response | undefined> => {
    const found = keeping.caller(c);
    const viewer = found instanceof Promise ? await found : found;
    const version = options.version();
    // Only a token verified at this very version: its holder (revoked or not, its user's
    // standing) is then what the storage holds, as it was for every answer kept at it.
    if (!viewer || keeping.callerVersion(c) !== version) {
      await next();
      return undefined;
    }
    const now = options.clock.now().getTime();
    return answers.through(c, next, {
      key: `${viewer.token.id} ${keyOf(c)}`,
      version,
      now,
      render: wantsRendering(c),
      headers: PRIVATE_HEADERS,
      until: () => {
        const lapse = keeping.lapse(viewer);
        const bound = now + viewerLifetime;
        return lapse instanceof Promise
          ? lapse.then((at) => Math.min(at, bound))
          : Math.min(lapse, bound);
      },
    });
  };

  return async (c, next) => {
    if (!READS.has(c.req.method)) {
      await next();
      setResponseHeaders(c, PRIVATE_HEADERS);
      return;
    }
    const announced = publicAnnouncement(c);
    if (!announced) {
      if (viewerAnswers && viewers && VIEWER_READ.test(c.req.path)) {
        const served = await forViewer(c, next, viewers, viewerAnswers);
        if (served) return served;
      } else {
        await next();
      }
      setResponseHeaders(c, PRIVATE_HEADERS);
      return;
    }
    if (lifetime === 0) {
      await next();
      announce(c, announced);
      return;
    }
    const now = options.clock.now().getTime();
    const served = await publicAnswers.through(c, next, {
      key: keyOf(c),
      version: options.version(),
      now,
      render: wantsRendering(c),
      headers: announced,
      until: () => now + lifetime,
    });
    if (served) return served;
    announce(c, announced);
  };
}
