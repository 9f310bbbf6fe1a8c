// Annual reports ("Wrapstodon"): a summary of one local account's year, generated once in
// December and kept. The rules here are Mastodon's (app/lib/annual_report*.rb, schema 2, the
// schema of Mastodon 4.6): when reports may be generated, which archetype a year's posting
// habits make, and the shape of the stored data, which the API hands out as it is stored.

/** The version of `data` Wren writes; clients read `data` according to it. */
export const ANNUAL_REPORT_SCHEMA = 2;

export type Archetype = "lurker" | "booster" | "pollster" | "replier" | "oracle";

/**
 * Schema 2 of Mastodon's report data, kept in Mastodon's own (snake_case) form: it is an opaque,
 * versioned document that the API serves as stored, like Mastodon's jsonb column.
 */
export interface AnnualReportData {
  archetype: Archetype;
  /** Schema 2 keeps a single entry (month 12) with the whole year's figures. */
  time_series: { month: number; statuses: number; followers: number }[];
  /** The most used hashtag, when one was used more than once (schema 2 keeps one). */
  top_hashtags: { name: string; count: number }[];
  /** Schema 2 names only the most boosted status; the other two are always null. */
  top_statuses: { by_reblogs: string | null; by_favourites: null; by_replies: null };
}

export interface AnnualReport {
  accountId: string;
  year: number;
  schemaVersion: number;
  data: AnnualReportData;
  createdAt: string;
  /** When the owner marked it read (POST …/read); unread reports are the ones listed. */
  viewedAt: string | null;
}

/**
 * The year whose reports may be generated at `now`, or null outside the campaign: Mastodon
 * offers them from the 10th to the 31st of December (UTC) of the year itself.
 */
export function campaignYear(now: Date): number | null {
  return now.getUTCMonth() === 11 && now.getUTCDate() >= 10 ? now.getUTCFullYear() : null;
}

/** A path segment naming a year (`2025`), or null for anything else. */
export function parseReportYear(raw: string): number | null {
  return /^[0-9]{4}$/.test(raw) ? Number(raw) : null;
}

/** [start, end) of the year in UTC, the period a report covers. */
export function yearBounds(year: number): { start: Date; end: Date } {
  return { start: new Date(Date.UTC(year, 0, 1)), end: new Date(Date.UTC(year + 1, 0, 1)) };
}

/** What the archetype is decided from: the year's statuses by kind. */
export interface PostingCounts {
  /** Neither replies to others nor reblogs (self-replies, threads, count here); polls included. */
  standalone: number;
  /** Replies to other accounts. */
  replies: number;
  reblogs: number;
  /** Statuses with a poll (also counted in their kind). */
  polls: number;
}

/** Posts (replies and reblogs included) an active Mastodon user made in 2023, on average. */
const AVERAGE_PER_YEAR = 113;
const SCORE_MULTIPLIER = 2;
const SCORE_REDUCER = 0.1;

/** Mastodon's archetype rule, in its order: the first that applies wins. */
export function archetypeOf(counts: PostingCounts): Archetype {
  const { standalone, replies, reblogs, polls } = counts;
  if (standalone + replies + reblogs < AVERAGE_PER_YEAR) return "lurker";
  if (reblogs > standalone * SCORE_MULTIPLIER) return "booster";
  if (polls > standalone * SCORE_REDUCER) return "pollster";
  if (replies > standalone * SCORE_MULTIPLIER) return "replier";
  return "oracle";
}

/** The accounts and statuses a report names, which the API includes beside it. */
export function reportAccountIds(report: AnnualReport): string[] {
  return [report.accountId];
}

export function reportStatusIds(report: AnnualReport): string[] {
  const { by_reblogs, by_favourites, by_replies } = report.data.top_statuses;
  return [by_reblogs, by_favourites, by_replies].filter((id): id is string => id !== null);
}
