// The counters behind a per-request rate limit: one fixed window per caller key, held in memory
// with a hard cap on how many keys are tracked. Keys come from callers (addresses, tokens), so
// without a cap a stream of new keys would grow the map for the whole window; at the cap the
// finished windows are dropped first, then the oldest ones (those nearest their reset), so a
// flood of new callers can cost an old caller its count but never unbounded memory. Long keys
// are kept as digests, so the cap bounds bytes too, not only entries.

import { createHash } from "node:crypto";

/** Keys longer than this (a login name is whatever a form sent) are kept as their digest. */
const LONGEST_KEPT_KEY = 128;

/** The key as counted: itself, or its digest when long (shared counters key the same way). */
export function compact(key: string): string {
  return key.length <= LONGEST_KEPT_KEY
    ? key
    : `sha256:${createHash("sha256").update(key).digest("base64url")}`;
}

export interface Window {
  resetAt: number;
  /** resetAt as the X-RateLimit-Reset header shows it, formatted once per window. */
  resetHeader: string;
  used: number;
}

export class FixedWindows {
  readonly #windowMs: number;
  readonly #maxKeys: number;
  /** In insertion order, which is the order the windows started (a new window re-inserts). */
  readonly #windows = new Map<string, Window>();

  constructor(windowSeconds: number, maxKeys: number) {
    this.#windowMs = windowSeconds * 1000;
    this.#maxKeys = Math.max(1, maxKeys);
  }

  /** How many caller keys are tracked now (never more than the cap). */
  get size(): number {
    return this.#windows.size;
  }

  /** The caller's current window, with this request counted. */
  hit(callerKey: string, now: number): Window {
    const key = compact(callerKey);
    let window = this.#windows.get(key);
    if (window && window.resetAt <= now) {
      this.#windows.delete(key);
      window = undefined;
    }
    if (!window) {
      this.#makeRoom(now);
      const resetAt = now + this.#windowMs;
      window = { resetAt, resetHeader: new Date(resetAt).toISOString(), used: 0 };
      this.#windows.set(key, window);
    }
    window.used += 1;
    return window;
  }

  /** The caller's current window without counting anything; undefined when it has none. */
  peek(callerKey: string, now: number): Window | undefined {
    const window = this.#windows.get(compact(callerKey));
    return window && window.resetAt > now ? window : undefined;
  }

  #makeRoom(now: number): void {
    if (this.#windows.size < this.#maxKeys) return;
    // Windows start in map order, so the finished ones are at the front.
    for (const [key, window] of this.#windows) {
      if (window.resetAt > now) break;
      this.#windows.delete(key);
    }
    while (this.#windows.size >= this.#maxKeys) {
      const oldest = this.#windows.keys().next().value as string;
      this.#windows.delete(oldest);
    }
  }
}
