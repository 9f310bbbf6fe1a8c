// The time rules of announcements. An announcement may have a time range (both ends, or
// neither: Mastodon refuses one without the other); `all_day` only means something with a
// range. Users see an announcement once it is published and its range has begun, until the
// range ends.

import type { Announcement } from "../../domain/announcement.ts";
import { unprocessable } from "../../domain/errors.ts";
import { compareIds } from "../../domain/ids.ts";

export interface ScheduleInput {
  startsAt?: string | null | undefined;
  endsAt?: string | null | undefined;
  allDay?: boolean | undefined;
}

export interface Schedule {
  startsAt: string | null;
  endsAt: string | null;
  allDay: boolean;
}

function parseTime(value: string | null | undefined, field: string): string | null {
  if (value === undefined || value === null || value.trim() === "") return null;
  const date = new Date(value.trim());
  // Four-digit years only, so stored times compare as strings.
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999) {
    throw unprocessable(`Validation failed: ${field} is invalid`);
  }
  return date.toISOString();
}

export function checkSchedule(input: ScheduleInput): Schedule {
  const startsAt = parseTime(input.startsAt, "Starts at");
  const endsAt = parseTime(input.endsAt, "Ends at");
  if (startsAt === null && endsAt !== null) {
    throw unprocessable("Validation failed: Starts at can't be blank");
  }
  if (endsAt === null && startsAt !== null) {
    throw unprocessable("Validation failed: Ends at can't be blank");
  }
  if (startsAt !== null && endsAt !== null && endsAt < startsAt) {
    throw unprocessable("Validation failed: Ends at must be after starts at");
  }
  return { startsAt, endsAt, allDay: startsAt !== null && input.allDay === true };
}

/** Is the announcement shown to users at `now`? */
export function isActive(announcement: Announcement, now: Date): boolean {
  const at = now.toISOString();
  if (announcement.publishedAt > at) return false;
  if (announcement.startsAt !== null && announcement.startsAt > at) return false;
  if (announcement.endsAt !== null && announcement.endsAt <= at) return false;
  return true;
}

/** Mastodon's chronological order: by start, else by publication. */
export function compareChronologically(a: Announcement, b: Announcement): number {
  const ka = a.startsAt ?? a.publishedAt;
  const kb = b.startsAt ?? b.publishedAt;
  return ka < kb ? -1 : ka > kb ? 1 : compareIds(a.id, b.id);
}
