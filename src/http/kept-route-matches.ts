// Hono's router with its answers kept. Wren's routes cannot all go into Hono's regular-expression
// router (a literal and a pattern at the same place, `/links/publishers/…` beside
// `/links/:id{[0-9]+}/…`, and ~30 more), so Hono falls back to its trie router, which walks every
// branch a path may take: 1.4 µs for `/api/v1/custom_emojis`, ~6 µs for `/api/v1/statuses/:id`
// (most of the CPU an API request spends in Hono). The routes are fixed once the first request is
// matched, so the same method and path always match the same handlers and parameters: the
// answer is kept (bounded; a hit is one lookup) and handed out again. Hono only reads a match
// (parameters are decoded into fresh objects), so one answer can serve many requests.

import type { Result, Router } from "hono/router";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { SmartRouter } from "hono/router/smart-router";
import { TrieRouter } from "hono/router/trie-router";
import { LruCache } from "../domain/lru-cache.ts";

/** Paths kept at most; each a key of at most LONGEST_KEPT_PATH characters and its match. */
const KEPT_MATCHES = 10_000;
/** Longer paths (no real route is near this) are matched each time, so junk cannot fill memory. */
const LONGEST_KEPT_PATH = 256;

export class KeptRouteMatches<T> implements Router<T> {
  readonly name: string;
  readonly #router: Router<T>;
  readonly #kept = new LruCache<string, Result<T>>(KEPT_MATCHES);

  /** By default the router Hono itself would use. */
  constructor(
    router: Router<T> = new SmartRouter({ routers: [new RegExpRouter(), new TrieRouter()] }),
  ) {
    this.#router = router;
    this.name = `kept matches of ${router.name}`;
  }

  add(method: string, path: string, handler: T): void {
    // A route added late would make kept answers stale; Hono's routers refuse it too, once built.
    if (this.#kept.size > 0) throw new Error("Routes cannot be added after the first match");
    this.#router.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    if (path.length > LONGEST_KEPT_PATH) return this.#router.match(method, path);
    const key = `${method} ${path}`;
    let result = this.#kept.get(key);
    if (result === undefined) {
      result = this.#router.match(method, path);
      this.#kept.set(key, result);
    }
    return result;
  }
}
