// When a scheduled status may be published: read from `scheduled_at` as Mastodon reads it, at
// least five minutes ahead, and within the account's limits (300 waiting, 25 on one UTC day).
// Shared by scheduling (POST /api/v1/statuses) and rescheduling (PUT).

import { unprocessable } from "../../domain/errors.ts";
import {
  MIN_SCHEDULE_OFFSET_MS,
  SCHEDULED_DAILY_LIMIT,
  SCHEDULED_TOTAL_LIMIT,
  utcDayOf,
} from "../../domain/scheduled-status.ts";
import type { ServiceContext } from "../context.ts";

const ISO_TIME =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * The instant `scheduled_at` names: an ISO 8601 date-time (a time without a zone is UTC, as
 * Mastodon reads it; a date alone is its midnight UTC). Anything else is refused with a 422.
 */
export function parseScheduledAt(value: string): Date {
  const match = ISO_TIME.exec(value.trim());
  const [, day, time, zone] = match ?? [];
  const text = time === undefined ? `${day}T00:00:00Z` : `${day}T${time}${zone ?? "Z"}`;
  const at = match && isCalendarDay(day as string) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) throw unprocessable("Validation failed: Scheduled at is invalid");
  return new Date(at);
}

/** Whether `YYYY-MM-DD` names a real day (Date.parse rolls 2030-02-30 over into March). */
function isCalendarDay(day: string): boolean {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(year, month - 1, date));
  return probe.getUTCMonth() === month - 1 && probe.getUTCDate() === date;
}

/** Mastodon posts at once a status "scheduled" for a time already past. */
export function isPast(ctx: ServiceContext, at: Date): boolean {
  return at.getTime() <= ctx.clock.now().getTime();
}

/**
 * Throws Mastodon's 422 listing every rule `at` breaks for the account: too soon, too many
 * waiting, too many on its day. `exceptId` is the scheduled status being moved (not counted).
 * Call under withScheduleLock so two requests cannot both take the last place.
 */
export async function checkScheduleTime(
  ctx: ServiceContext,
  accountId: string,
  at: Date,
  exceptId: string | null,
): Promise<void> {
  const errors: string[] = [];
  if (at.getTime() <= ctx.clock.now().getTime() + MIN_SCHEDULE_OFFSET_MS) {
    errors.push("Scheduled at The scheduled date must be in the future");
  }
  const store = ctx.storage.scheduledStatuses;
  const self = exceptId === null ? undefined : await store.get(exceptId);
  const [total, onDay] = await Promise.all([
    store.countByAccount(accountId),
    store.countByAccount(accountId, utcDayOf(at.toISOString())),
  ]);
  const selfOnDay =
    self !== undefined && utcDayOf(self.scheduledAt).from === utcDayOf(at.toISOString()).from;
  if (total - (self ? 1 : 0) >= SCHEDULED_TOTAL_LIMIT) {
    errors.push(`You have exceeded the limit of ${SCHEDULED_TOTAL_LIMIT} scheduled posts`);
  }
  if (onDay - (selfOnDay ? 1 : 0) >= SCHEDULED_DAILY_LIMIT) {
    errors.push(
      `You have exceeded the limit of ${SCHEDULED_DAILY_LIMIT} scheduled posts for today`,
    );
  }
  if (errors.length > 0) throw unprocessable(`Validation failed: ${errors.join(", ")}`);
}

/** One scheduling change at a time per account, across processes (the limits hold exactly). */
export function withScheduleLock<T>(
  ctx: ServiceContext,
  accountId: string,
  work: () => Promise<T>,
): Promise<T> {
  return ctx.storage.coordination.withLock(`scheduled-statuses:${accountId}`, work);
}
