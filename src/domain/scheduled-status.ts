// A status an author asked to publish later (POST /api/v1/statuses with `scheduled_at`): the
// posting parameters are kept as given and turned into a status at `scheduledAt` by a job on the
// durable queue. Mastodon keeps the same record (ScheduledStatus) with the same limits.

import type { Visibility } from "./account.ts";
import type { QuotePolicy } from "./quote.ts";

/** The poll to attach once published; its deadline counts from the publication. */
export interface ScheduledPoll {
  options: string[];
  /** Seconds the poll stays open. */
  expiresIn: number;
  multiple: boolean;
  hideTotals: boolean;
}

/** What POST /api/v1/statuses was given, to post with at the time; null where not given. */
export interface ScheduledStatusParams {
  text: string;
  spoilerText: string | null;
  sensitive: boolean | null;
  visibility: Visibility | null;
  language: string | null;
  inReplyToId: string | null;
  /** Held by the scheduled status meanwhile (their statusId is this record's id). */
  mediaIds: string[] | null;
  poll: ScheduledPoll | null;
  /** The OAuth app of the token that scheduled it. */
  applicationId: string | null;
  idempotency: string | null;
  /** The status to quote (`quoted_status_id`); absent in records scheduled before quotes were. */
  quotedStatusId?: string | null;
  /** Who may quote it (`quote_approval_policy`), resolved when scheduled, as Mastodon does. */
  quotePolicy?: QuotePolicy | null;
}

export interface ScheduledStatus {
  id: string;
  accountId: string;
  /** When to publish (ISO). */
  scheduledAt: string;
  params: ScheduledStatusParams;
  /** The queued job that publishes it (moved when the time changes, removed on cancelling). */
  jobId: string | null;
  createdAt: string;
}

/** A scheduled time must lie at least this far ahead (Mastodon's MIN_SCHEDULE_OFFSET). */
export const MIN_SCHEDULE_OFFSET_MS = 5 * 60 * 1000;
/** Most scheduled statuses an account may have waiting, in all and on one (UTC) day. */
export const SCHEDULED_TOTAL_LIMIT = 300;
export const SCHEDULED_DAILY_LIMIT = 25;

/** The UTC day [start, end) holding `iso`, as ISO times: the window of the daily limit. */
export function utcDayOf(iso: string): { from: string; to: string } {
  const start = new Date(iso);
  start.setUTCHours(0, 0, 0, 0);
  const end = new Date(start.getTime() + 24 * 60 * 60 * 1000);
  return { from: start.toISOString(), to: end.toISOString() };
}
