// GET /api/v1/instance/activity: the last twelve weeks, newest first, counted from the records
// themselves (Mastodon keeps running counters instead). Week 0 starts at today's midnight (UTC)
// and each earlier one seven days before, as Mastodon counts whole days from i weeks ago.
// - statuses: local statuses (not boosts) created that week, by their ids' time; deleted ones
//   are no longer stored as listable and are not counted;
// - registrations: local accounts created that week;
// - logins: the local users active that week (who used an access token; services/metrics/
//   activity.ts), each counted once, as Mastodon counts distinct sign-ins a week.

import { idFromTime } from "../domain/ids.ts";
import type { ServiceContext } from "../services/context.ts";
import { activeDays } from "../services/metrics/activity.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;
export const ACTIVITY_WEEKS = 12;
const PAGE = 200;

export interface ActivityWeek {
  /** Start of the week, ms since the epoch. */
  weekStart: number;
  statuses: number;
  logins: number;
  registrations: number;
}

/** Which week (0 = this one) a time falls in, or undefined outside the twelve. */
function weekIndex(weekZeroStart: number, at: number): number | undefined {
  if (at >= weekZeroStart + WEEK_MS) return undefined;
  const index = Math.floor((weekZeroStart + WEEK_MS - 1 - at) / WEEK_MS);
  return index >= 0 && index < ACTIVITY_WEEKS ? index : undefined;
}

/** Creation times (ms) of the account's statuses since `sinceMs`, walking its list by pages. */
async function statusTimes(ctx: ServiceContext, accountId: string, sinceMs: number) {
  const sinceId = idFromTime(new Date(sinceMs - 1));
  const times: number[] = [];
  let maxId: string | undefined;
  for (;;) {
    const page = await ctx.storage.statuses.listByAccount(
      accountId,
      { limit: PAGE, sinceId, maxId },
      { excludeReblogs: true },
    );
    for (const status of page) times.push(Date.parse(status.createdAt));
    if (page.length < PAGE) return times;
    maxId = page[page.length - 1]?.id;
  }
}

/**
 * Counting walks every local status of the twelve weeks, too much for each call of a public
 * endpoint: the weeks are kept an hour in the key–value store, shared by every process, as
 * Mastodon keeps its answer (a day).
 */
const CACHE_KEY = ["wren", "instance", "activity"];
const CACHE_MS = 60 * 60 * 1000;

export async function loadInstanceActivity(ctx: ServiceContext): Promise<ActivityWeek[]> {
  const now = ctx.clock.now();
  const kept = await ctx.storage.kv.get(CACHE_KEY);
  if (kept && kept.expiresAt !== null && kept.expiresAt > now.toISOString()) {
    return kept.value as ActivityWeek[];
  }
  const weeks = await countActivity(ctx);
  const expiresAt = new Date(now.getTime() + CACHE_MS).toISOString();
  await ctx.storage.kv.set({ key: CACHE_KEY, value: weeks, expiresAt });
  return weeks;
}

async function countActivity(ctx: ServiceContext): Promise<ActivityWeek[]> {
  const now = ctx.clock.now().getTime();
  const weekZeroStart = now - (now % DAY_MS);
  const oldest = weekZeroStart - (ACTIVITY_WEEKS - 1) * WEEK_MS;
  const weeks: ActivityWeek[] = Array.from({ length: ACTIVITY_WEEKS }, (_, i) => ({
    weekStart: weekZeroStart - i * WEEK_MS,
    statuses: 0,
    logins: 0,
    registrations: 0,
  }));
  const count = (at: number, field: "statuses" | "registrations") => {
    const index = weekIndex(weekZeroStart, at);
    if (index !== undefined) (weeks[index] as ActivityWeek)[field] += 1;
  };

  const users = await ctx.storage.users.list();
  for (const user of users) count(Date.parse(user.createdAt), "registrations");
  const perUser = await Promise.all(users.map((u) => statusTimes(ctx, u.accountId, oldest)));
  for (const times of perUser) for (const at of times) count(at, "statuses");
  const weekUsers = weeks.map(() => new Set<string>());
  const active = await activeDays(ctx, new Date(oldest).toISOString().slice(0, 10), "9999-12-31");
  for (const [day, ids] of active) {
    const index = weekIndex(weekZeroStart, Date.parse(day));
    if (index !== undefined) for (const id of ids) weekUsers[index]?.add(id);
  }
  weekUsers.forEach((set, i) => {
    (weeks[i] as ActivityWeek).logins = set.size;
  });
  return weeks;
}
