// The admin retention (Mastodon's POST /api/v1/admin/retention): the users who signed up in each
// day (or month) of the period, and for each later period up to the end, how many of them were
// active then or later, with the rate (Mastodon counts a user retained in a period when their
// last sign-in falls in it or after; Wren's "sign-in" is a day with a token used,
// metrics/activity.ts).

import type { ServiceContext } from "../context.ts";
import { activeDays } from "./activity.ts";
import { dayOfTime, daysOf, type Period } from "./period.ts";

export type Frequency = "day" | "month";

export interface Cohort {
  /** First day of the sign-up period (YYYY-MM-DD). */
  period: string;
  frequency: Frequency;
  data: { date: string; rate: number; value: number }[];
}

/** The start (YYYY-MM-DD) of the day's period. */
const periodStart = (day: string, frequency: Frequency) =>
  frequency === "day" ? day : `${day.slice(0, 7)}-01`;

export async function retention(
  ctx: ServiceContext,
  period: Period,
  frequency: Frequency,
): Promise<Cohort[]> {
  const starts = [...new Set(daysOf(period).map((d) => periodStart(d, frequency)))];
  // Each user's last active day from the period's first start on (what "retained" looks at).
  const lastActive = new Map<string, string>();
  const first = starts[0] ?? period.from;
  for (const [day, ids] of await activeDays(ctx, first, "9999-12-31")) {
    for (const id of ids) if ((lastActive.get(id) ?? "") < day) lastActive.set(id, day);
  }
  const cohorts = new Map<string, string[]>(starts.map((s) => [s, []]));
  for (const user of await ctx.storage.users.list()) {
    const day = dayOfTime(user.createdAt);
    if (day < first || day > period.to) continue;
    cohorts.get(periodStart(day, frequency))?.push(user.accountId);
  }
  return starts.map((start) => {
    const members = cohorts.get(start) ?? [];
    return {
      period: start,
      frequency,
      data: starts
        .filter((s) => s >= start)
        .map((date) => {
          const value = members.filter((id) => (lastActive.get(id) ?? "") >= date).length;
          return { date, rate: value / Math.max(members.length, 1), value };
        }),
    };
  });
}
