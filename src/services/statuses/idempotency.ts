// Idempotency-Key for posting: a client that retries a POST (after a timeout, say) with the same
// key within an hour gets the status made the first time instead of a duplicate, as Mastodon
// does. Keys are stored hashed with the account id; concurrent requests with the same key are
// serialised in this process so the second one sees the first one's record.

import { createHash } from "node:crypto";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";

const WINDOW_MS = 60 * 60 * 1000;
const inFlight = new Map<string, Promise<unknown>>();

export function idempotencyKeyHash(accountId: string, key: string): string {
  return createHash("sha256").update(`${accountId}\n${key}`).digest("hex");
}

async function serialised<T>(key: string, run: () => Promise<T>): Promise<T> {
  const previous = inFlight.get(key) ?? Promise.resolve();
  const current = previous.catch(() => undefined).then(run);
  inFlight.set(key, current);
  try {
    return await current;
  } finally {
    if (inFlight.get(key) === current) inFlight.delete(key);
  }
}

/**
 * Runs `post` once per (account, key) within an hour; a repeat answers the first status while it
 * still exists. Without a key, simply posts.
 */
export async function withIdempotency(
  ctx: ServiceContext,
  accountId: string,
  key: string | undefined,
  post: () => Promise<Status>,
): Promise<Status> {
  if (key === undefined || key === "") return post();
  const keyHash = idempotencyKeyHash(accountId, key);
  return serialised(keyHash, async () => {
    const now = ctx.clock.now();
    const cutoff = new Date(now.getTime() - WINDOW_MS).toISOString();
    await ctx.storage.idempotency.prune(cutoff);
    const record = await ctx.storage.idempotency.get(keyHash);
    if (record && record.createdAt >= cutoff) {
      const earlier = await ctx.storage.statuses.get(record.statusId);
      if (earlier && !earlier.deleted) return earlier;
    }
    const status = await post();
    await ctx.storage.idempotency.put({
      keyHash,
      statusId: status.id,
      createdAt: now.toISOString(),
    });
    return status;
  });
}
