// Idempotency-Key for posting: a client that retries a POST (after a timeout, say) with the same
// key within an hour gets the status made the first time instead of a duplicate, as Mastodon
// does. Keys are stored hashed with the account id.
//
// The key is recorded BEFORE the status, together with the id the status will have: a crash
// between the two leaves a key naming a status that was never stored, and the retry then stores
// it under that very id. Recording it after the status (as before) let a crash in between post
// the retry a second time, and the duplicate would have been federated. Reusing the id also
// lets the retry take back media the first attempt had already attached to it.
//
// Concurrent requests with the same key are serialised by the storage's keyed lock, across
// every process sharing it, so the second one sees the first one's record. The record itself is
// created only if absent (IdempotencyStore.putIfAbsent): should two attempts still race (a lock
// lease lost to a stalled process), the loser learns the winner's id and answers with that one,
// so a retry never makes a second status.

import { createHash } from "node:crypto";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";

export const IDEMPOTENCY_WINDOW_MS = 60 * 60 * 1000;

/** Thrown by recordKey when another attempt recorded the key first (see withIdempotency). */
class KeyTakenError extends Error {}

/** Where a post goes: the status id to use, and what to do just before the first write. */
export interface PostSlot {
  readonly id: string;
  /** Records the Idempotency-Key (if any) with `id`; call it after validation, before writing. */
  recordKey(): Promise<void>;
}

export function idempotencyKeyHash(accountId: string, key: string): string {
  return createHash("sha256").update(`${accountId}\n${key}`).digest("hex");
}

const nothingToRecord = async () => {};

/**
 * Runs `post` once per (account, key) within an hour; a repeat answers the first status while it
 * still exists, or stores it under its recorded id if the first attempt died before storing it.
 * Without a key, simply posts.
 */
export async function withIdempotency(
  ctx: ServiceContext,
  accountId: string,
  key: string | undefined,
  post: (slot: PostSlot) => Promise<Status>,
): Promise<Status> {
  if (key === undefined || key === "") {
    return post({ id: ctx.ids.next(), recordKey: nothingToRecord });
  }
  const keyHash = idempotencyKeyHash(accountId, key);
  const attempt = () =>
    ctx.storage.coordination.withLock(`idempotency:${keyHash}`, async () => {
      const now = ctx.clock.now();
      const cutoff = new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString();
      await ctx.storage.idempotency.prune(cutoff);
      const record = await ctx.storage.idempotency.get(keyHash);
      if (record && record.createdAt >= cutoff) {
        const earlier = await ctx.storage.statuses.get(record.statusId);
        if (earlier && !earlier.deleted) return earlier;
        // Recorded but never stored: the first attempt died (or failed) before writing it.
        if (!earlier) return post({ id: record.statusId, recordKey: nothingToRecord });
      }
      const id = ctx.ids.next();
      return post({
        id,
        recordKey: async () => {
          const mine = { keyHash, statusId: id, createdAt: now.toISOString() };
          // A record naming a status since deleted is replaced (the key posts anew, as in
          // Mastodon); otherwise the key must still be free.
          if (record) return ctx.storage.idempotency.put(mine);
          const held = await ctx.storage.idempotency.putIfAbsent(mine);
          if (held.statusId !== id) throw new KeyTakenError();
        },
      });
    });
  try {
    return await attempt();
  } catch (error) {
    if (!(error instanceof KeyTakenError)) throw error;
    // Lost the race to record the key: the second attempt finds the winner's record.
    return attempt();
  }
}
