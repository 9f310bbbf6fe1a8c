// Which local users were active on which day (UTC), for the admin metrics (active users,
// retention) and the instance activity's logins: a user is active on a day they used an access
// token. One key–value entry per user and day, ["wren", "activeDay", "YYYY-MM-DD", account id],
// written only when absent (an insert that a second process finds done), and a process remembers
// whom it already noted today, so a user costs at most one write a day whatever the number of
// requests or processes. Entries expire after RETENTION_DAYS and the maintenance sweep removes them.

import { getLogger } from "@logtape/logtape";
import { LruCache } from "../../domain/lru-cache.ts";
import type { ServiceContext } from "../context.ts";

const PREFIX = ["wren", "activeDay"] as const;
const DAY_MS = 86_400_000;
/** How long a day's activity is kept: a year of metrics and then some. */
export const ACTIVITY_RETENTION_DAYS = 400;
/** Users remembered per process (the rest are checked against storage again). */
const REMEMBERED = 50_000;

const logger = getLogger(["wren", "metrics"]);
const noted = new WeakMap<ServiceContext, LruCache<string, string>>();

export const dayOf = (time: Date | number): string => new Date(time).toISOString().slice(0, 10);

/** Records that the user of `accountId` is active today (cheap when already noted). */
/** The last day computed and the instants it spans: every request with a token asks. */
let lastDay = { day: "", from: 0, to: 0 };

function today(now: Date): string {
  const time = now.getTime();
  if (time < lastDay.from || time >= lastDay.to) {
    const from = Math.floor(time / DAY_MS) * DAY_MS;
    lastDay = { day: dayOf(from), from, to: from + DAY_MS };
  }
  return lastDay.day;
}

/**
 * Marks the account active today. Answers without a promise when today's mark is made already
 * (every request with a token asks; one in a day writes).
 */
export function noteActivity(ctx: ServiceContext, accountId: string): Promise<void> | undefined {
  const now = ctx.clock.now();
  const day = today(now);
  let memo = noted.get(ctx);
  if (!memo) {
    memo = new LruCache(REMEMBERED);
    noted.set(ctx, memo);
  }
  if (memo.get(accountId) === day) return undefined;
  memo.set(accountId, day);
  return record(ctx, memo, accountId, day, now);
}

async function record(
  ctx: ServiceContext,
  memo: LruCache<string, string>,
  accountId: string,
  day: string,
  now: Date,
): Promise<void> {
  const expiresAt = new Date(Date.parse(day) + ACTIVITY_RETENTION_DAYS * DAY_MS).toISOString();
  try {
    await ctx.storage.kv.compareAndSet(
      undefined,
      { key: [...PREFIX, day, accountId], value: true, expiresAt },
      now.toISOString(),
    );
  } catch (error) {
    // A metric never fails the request that uses the token; the next request tries again.
    memo.set(accountId, "");
    logger.warn("Could not record the activity of {accountId}: {error}", { accountId, error });
  }
}

/** Who was active on each day of [from, to] (YYYY-MM-DD, inclusive): day → account ids. */
export async function activeDays(
  ctx: ServiceContext,
  from: string,
  to: string,
): Promise<Map<string, Set<string>>> {
  const days = new Map<string, Set<string>>();
  for (const entry of await ctx.storage.kv.list(PREFIX)) {
    const [, , day, accountId] = entry.key;
    if (!day || !accountId || day < from || day > to) continue;
    const set = days.get(day) ?? new Set<string>();
    set.add(accountId);
    days.set(day, set);
  }
  return days;
}
