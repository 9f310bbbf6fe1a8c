// What an annual report is computed from: the account's statuses of the year and the follows
// it gained in it, read through the storage ports. Records are listed newest first by id, and
// ids grow with time (domain/ids.ts), so a walk starts at the year's end and stops past its start.

import { type AnnualReportData, archetypeOf, yearBounds } from "../../domain/annual-report.ts";
import { idFromTime } from "../../domain/ids.ts";
import type { Status } from "../../domain/status.ts";
import { normalizeTag } from "../../domain/text/hashtags.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";

const PAGE = 200;
/** Statuses whose interaction counts are read in one batch. */
const COUNT_BATCH = 500;
/** Mastodon keeps hashtags used more than once, and schema 2 only the most used one. */
const MINIMUM_TAGGINGS = 1;
const HASHTAG_SET_SIZE = 1;

export interface YearActivity {
  /** The account's statuses created in the year (deleted ones left out), newest first. */
  statuses: Status[];
  /** Follows of the account made in the year that still hold. */
  followersGained: number;
}

/**
 * Visits the records created within the year, newest first, walking `list` from the year's end
 * backwards, until `visit` answers false.
 */
async function walkYear<T extends { id: string; createdAt: string }>(
  list: (page: IdPage) => Promise<T[]>,
  year: number,
  visit: (record: T) => boolean,
): Promise<void> {
  const { start, end } = yearBounds(year);
  const [from, until] = [start.toISOString(), end.toISOString()];
  const floor = BigInt(idFromTime(start));
  let maxId = idFromTime(end);
  for (;;) {
    const page = await list({ limit: PAGE, maxId });
    for (const record of page) {
      if (record.createdAt >= from && record.createdAt < until && !visit(record)) return;
    }
    const last = page.at(-1);
    if (!last || page.length < PAGE || BigInt(last.id) < floor) return;
    maxId = last.id;
  }
}

async function recordsOfYear<T extends { id: string; createdAt: string }>(
  list: (page: IdPage) => Promise<T[]>,
  year: number,
): Promise<T[]> {
  const found: T[] = [];
  await walkYear(list, year, (record) => found.push(record) > 0);
  return found;
}

export async function gatherYearActivity(
  ctx: ServiceContext,
  accountId: string,
  year: number,
): Promise<YearActivity> {
  const [statuses, follows] = await Promise.all([
    recordsOfYear((page) => ctx.storage.statuses.listByAccount(accountId, page), year),
    recordsOfYear((page) => ctx.storage.follows.listTo(accountId, page), year),
  ]);
  return { statuses, followersGained: follows.length };
}

/** Public and quiet public statuses: the ones a report may name (Mastodon's distributable ones). */
function distributable(status: Status): boolean {
  return status.visibility === "public" || status.visibility === "unlisted";
}

/**
 * Mastodon's eligibility: every part of the report must have something to show, i.e. the year
 * has a public or quiet public status (the top status) and a status with a hashtag. The walk
 * stops as soon as both are found: clients ask for the state often.
 */
export async function isEligible(
  ctx: ServiceContext,
  accountId: string,
  year: number,
): Promise<boolean> {
  let shared = false;
  let tagged = false;
  await walkYear(
    (page) => ctx.storage.statuses.listByAccount(accountId, page),
    year,
    (status) => {
      shared ||= distributable(status);
      tagged ||= status.tags.length > 0;
      return !(shared && tagged);
    },
  );
  return shared && tagged;
}

/** The most boosted of the year's own public statuses; the newest wins a tie. */
async function mostReblogged(ctx: ServiceContext, statuses: Status[]): Promise<string | null> {
  const candidates = statuses.filter((s) => distributable(s) && s.reblogOfId === null);
  let best: { id: string; reblogs: number } | null = null;
  for (let i = 0; i < candidates.length; i += COUNT_BATCH) {
    const ids = candidates.slice(i, i + COUNT_BATCH).map((s) => s.id);
    const counts = await ctx.storage.statuses.interactionCounts(ids);
    // Newest first: only a strictly higher count displaces the one found.
    for (const id of ids) {
      const reblogs = counts.get(id)?.reblogs ?? 0;
      if (!best || reblogs > best.reblogs) best = { id, reblogs };
    }
  }
  return best?.id ?? null;
}

/** Hashtags by use, compared normalised, named as most recently typed. */
function topHashtags(statuses: Status[]): { name: string; count: number }[] {
  const byTag = new Map<string, { name: string; count: number }>();
  for (const status of statuses) {
    for (const tag of new Set(status.tags)) {
      const key = normalizeTag(tag);
      const seen = byTag.get(key);
      if (seen) seen.count += 1;
      else byTag.set(key, { name: tag, count: 1 });
    }
  }
  return [...byTag.values()]
    .filter((t) => t.count > MINIMUM_TAGGINGS)
    .sort((a, b) => b.count - a.count)
    .slice(0, HASHTAG_SET_SIZE);
}

export async function buildReportData(
  ctx: ServiceContext,
  accountId: string,
  activity: YearActivity,
): Promise<AnnualReportData> {
  const { statuses } = activity;
  const reblogs = statuses.filter((s) => s.reblogOfId !== null).length;
  const replies = statuses.filter(
    (s) => s.inReplyToId !== null && s.inReplyToAccountId !== accountId,
  ).length;
  const standalone = statuses.filter(
    (s) => s.reblogOfId === null && (s.inReplyToId === null || s.inReplyToAccountId === accountId),
  ).length;
  const polls = statuses.filter((s) => s.pollId !== null).length;
  return {
    archetype: archetypeOf({ standalone, replies, reblogs, polls }),
    time_series: [{ month: 12, statuses: statuses.length, followers: activity.followersGained }],
    top_hashtags: topHashtags(statuses),
    top_statuses: {
      by_reblogs: await mostReblogged(ctx, statuses),
      by_favourites: null,
      by_replies: null,
    },
  };
}
