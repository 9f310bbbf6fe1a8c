// Whole API answers kept in memory, each with the storage version it was rendered at (the
// anonymous public reads and the signed-in reads of api-caching.ts keep theirs here, each kind in
// its own store). A kept answer is served only while the version is the one it was rendered at
// and its time has not run out; concurrent misses of one key share a single rendering.
//
// The bytes of a rendered answer are taken from what the handler gave its Response: the node
// adapter's lightweight Response holds the body it was built with (a string or bytes) under a
// symbol of its own, and reading it there leaves the response as it was. Response.clone() would
// turn it into a web Response with a stream, which the adapter then writes chunk by chunk (a
// signed-in miss pays for that on every write between two requests). Any other response (a
// stream, or a test's app.request without the adapter) is copied through clone().

import type { Context, Next } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { LruCache } from "../../domain/lru-cache.ts";
import type { HttpEnv } from "../env.ts";
import { responseHeader, setResponseHeaders } from "./response-headers.ts";

export type Announced = Readonly<Record<string, string>>;

export interface KeptAnswer {
  /** The storage version the answer was rendered at. */
  version: number;
  /** Clock milliseconds after which it is rendered again (what changes with the clock alone). */
  expiresAt: number;
  status: ContentfulStatusCode;
  body: Uint8Array;
  contentType: string;
  /** Cache-Control, Vary and the page's Link; the rest (CORS, rate limits, ids) are per request. */
  headers: Announced;
}

export interface KeptAnswersBounds {
  /** How many answers at most. */
  count: number;
  /** What their bodies may weigh together, in bytes. */
  bytes: number;
  /** A larger answer is rendered each time. */
  largest: number;
}

/** The adapter's symbol for what a lightweight Response was built with: [status, body, headers]. */
let builtWith: symbol | undefined;

function builtFrom(res: Response): unknown[] | undefined {
  if (builtWith === undefined) {
    builtWith = Object.getOwnPropertySymbols(res).find((s) => s.description === "cache");
    if (builtWith === undefined) return undefined;
  }
  const built = (res as unknown as Record<symbol, unknown>)[builtWith];
  return Array.isArray(built) ? built : undefined;
}

const encoder = new TextEncoder();

/**
 * The answer's body as bytes, leaving the response to be written as it is. Nothing writes into a
 * body once it is handed to a Response, so keeping it is keeping a copy; but bytes that share
 * their memory with much else (a small Buffer is a slice of an 8 kB pool; a page's bytes a slice
 * of a buffer allocated for its largest size) would hold all of it, so those are copied.
 */
async function bodyBytes(res: Response, built: unknown[] | undefined): Promise<Uint8Array> {
  const body = built?.[1];
  if (body instanceof Uint8Array) {
    return body.buffer.byteLength > 2 * body.byteLength ? new Uint8Array(body) : body;
  }
  if (typeof body === "string") return encoder.encode(body);
  return new Uint8Array(await res.clone().arrayBuffer());
}

/**
 * The answer's Content-Type, read where the handler put it: asking res.headers would turn the
 * headers it was built with into a web Headers object, which the adapter then converts back.
 */
function contentTypeOf(res: Response, built: unknown[] | undefined): string {
  const headers = built?.[2];
  if (headers !== null && typeof headers === "object" && !(headers instanceof Headers)) {
    for (const [name, value] of Object.entries(headers)) {
      if (name.length === 12 && name.toLowerCase() === "content-type") return String(value);
    }
  }
  return res.headers.get("content-type") ?? "application/json";
}

/** What a kept answer weighs: the memory its bytes hold. */
const weightOf = (kept: KeptAnswer) => kept.body.buffer.byteLength;

/** An answer the client wants rendered, not served from a cache (RFC 9111 §5.2.1.4). */
export function wantsRendering(c: Context<HttpEnv>): boolean {
  const control = c.req.header("cache-control");
  if (control !== undefined) return /(?:^|,)\s*no-cache\b/i.test(control);
  return c.req.header("pragma")?.toLowerCase() === "no-cache";
}

/** What a kept answer is served with: its bytes, status, type and its own headers. */
function answer(c: Context<HttpEnv>, found: KeptAnswer): Response {
  // One header given to c.body (more would make Hono build a web Headers object, a few percent
  // of a kept answer's cost); the others go straight onto Node's response.
  const res = c.body(found.body as Uint8Array<ArrayBuffer>, found.status, {
    "Content-Type": found.contentType,
  });
  setResponseHeaders(c, found.headers);
  return res;
}

export interface KeptLookup {
  key: string;
  version: number;
  now: number;
  /** Render even if a current answer is kept (the request asked no-cache); keep the new one. */
  render: boolean;
  /**
   * When the rendered answer may be kept until, given its own headers (Link aside); undefined
   * keeps nothing. Asked only for a successful answer.
   */
  until: () => number | undefined | Promise<number | undefined>;
  headers: Announced;
}

export class KeptAnswers {
  readonly #bounds: KeptAnswersBounds;
  readonly #kept: LruCache<string, KeptAnswer>;
  readonly #rendering = new Map<string, Promise<KeptAnswer | undefined>>();

  constructor(bounds: KeptAnswersBounds) {
    this.#bounds = bounds;
    this.#kept = new LruCache(bounds.count, {
      max: bounds.bytes,
      of: weightOf,
    });
  }

  /** How many answers are kept now (for tests). */
  get size(): number {
    return this.#kept.size;
  }

  /** What the kept bodies weigh together. */
  get bytes(): number {
    return this.#kept.weight;
  }

  /**
   * The kept answer when it is current; else renders (next) and keeps the result. Resolves to
   * the response served from what is kept, or undefined when the handler rendered it (c.res).
   */
  async through(c: Context<HttpEnv>, next: Next, at: KeptLookup): Promise<Response | undefined> {
    const { key, version, now } = at;
    const current = (found: KeptAnswer | undefined): found is KeptAnswer =>
      found !== undefined && found.version === version && found.expiresAt > now;
    let pending: Promise<KeptAnswer | undefined> | undefined;
    if (!at.render) {
      const found = this.#kept.get(key);
      if (current(found)) return answer(c, found);
      pending = this.#rendering.get(key);
      if (pending) {
        const shared = await pending;
        if (current(shared)) return answer(c, shared);
      }
    }
    let settle: (value: KeptAnswer | undefined) => void = () => {};
    const leads = pending === undefined && !this.#rendering.has(key);
    if (leads) {
      this.#rendering.set(
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
      fresh = await this.#keep(c, at).catch(() => undefined);
      if (fresh) this.#kept.set(key, fresh);
    } finally {
      if (leads) {
        this.#rendering.delete(key);
        settle(fresh);
      }
    }
    return undefined;
  }

  async #keep(c: Context<HttpEnv>, at: KeptLookup): Promise<KeptAnswer | undefined> {
    const res = c.res;
    if (res.status !== 200) return undefined;
    const until = await at.until();
    if (until === undefined || until <= at.now) return undefined;
    const built = builtFrom(res);
    const body = await bodyBytes(res, built);
    if (body.byteLength > this.#bounds.largest) return undefined;
    const link = responseHeader(c, "link");
    const headers = link ? { ...at.headers, Link: link } : at.headers;
    const contentType = contentTypeOf(res, built);
    return { version: at.version, expiresAt: until, status: 200, body, contentType, headers };
  }
}
