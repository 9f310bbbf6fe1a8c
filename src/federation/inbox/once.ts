// Each activity is acted on once. Fedify marks an activity id as processed after its listener
// succeeds, but two deliveries of the same activity (a replay, or the shared and a personal
// inbox) can be queued and run at the same time; a claim in the key–value store, taken with
// compare-and-set before acting, lets only one of them through. A failed attempt releases the
// claim so the retry can act; a crash leaves a short-lived claim that lapses by itself. After
// success the claim is left to lapse: by then Fedify's own record of processed activity ids
// refuses later copies, so a second "done" record would only cost a durable write.

import type { ServiceContext } from "../../services/context.ts";

const PREFIX = ["wren", "inboxActivity"] as const;
const CLAIM_MS = 10 * 60_000;

/** Runs `work` unless this activity id was (or is being) handled; true when it ran. */
export async function once(
  ctx: ServiceContext,
  activityId: URL | null,
  work: () => Promise<void>,
): Promise<boolean> {
  if (activityId === null) {
    await work();
    return true;
  }
  const key = [...PREFIX, activityId.href];
  const now = ctx.clock.now();
  const until = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const claimed = await ctx.storage.kv.compareAndSet(
    undefined,
    { key, value: "claimed", expiresAt: until(CLAIM_MS) },
    now.toISOString(),
  );
  if (!claimed) return false;
  try {
    await work();
  } catch (error) {
    await ctx.storage.kv.delete(key);
    throw error;
  }
  return true;
}
