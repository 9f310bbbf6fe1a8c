// Trending hashtags and statuses, computed from what this server has seen in the last
// WINDOW_HOURS of public activity, local and federated, with nobody reviewing them. So that no
// single account (or spammer) can push an item, every measure is bounded:
//   - only public, non-boost statuses (the public timeline's, so unlisted ones never count) by
//     discoverable, unsuspended, non-bot accounts; at most SCANNED_MAX statuses are read;
//   - a hashtag scores by the distinct accounts that used it, each counted once whatever how
//     often they posted it, weighed by how recent their latest use is (halving every
//     TAG_HALF_LIFE_HOURS); only the first TAGS_PER_STATUS tags of a status count (tag stuffing
//     buys nothing) and a tag needs MIN_TAG_ACCOUNTS accounts to trend;
//   - a status scores by its boosts and favourites, halving every STATUS_HALF_LIFE_HOURS of its
//     age; it needs MIN_INTERACTIONS of them, must not be sensitive (nor behind a content
//     warning) nor a reply, and an author has at most STATUSES_PER_AUTHOR trending statuses.
// The lists are computed at most once per REFRESH_MS in a process, and only again when storage
// changed or STALE_MS passed (the window slides and scores decay on a quiet server too): a trend
// a minute old is as good, and a popular server's requests cost nothing then.
// Links trend through these statuses' preview cards (discovery/trending.ts). These are the
// candidates: what the public is shown of them depends on the staff's reviews, read per request
// (discovery/trending.ts), so a decision needs no recomputation and is seen by every process.

import { getLogger } from "@logtape/logtape";
import { isSilenced } from "../../domain/account.ts";
import { compareIds, idFromTime, timeFromId } from "../../domain/ids.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { requestReviews } from "./trend-reviews.ts";

const HOUR_MS = 3_600_000;
const WINDOW_HOURS = 48;
const PAGE = 400;
const SCANNED_MAX = 8000;
const TAGS_PER_STATUS = 4;
const TAG_HALF_LIFE_HOURS = 12;
const MIN_TAG_ACCOUNTS = 2;
const STATUS_HALF_LIFE_HOURS = 8;
const MIN_INTERACTIONS = 2;
const STATUSES_PER_AUTHOR = 2;
/** Longest lists kept: Mastodon's largest page (20 tags, 40 statuses) several times over. */
const TAGS_KEPT = 100;
const STATUSES_KEPT = 200;
const REFRESH_MS = 60_000;
const STALE_MS = 15 * 60_000;

export interface Trends {
  /** Normalised tag names, most trending first. */
  tags: string[];
  /** Status ids, most trending first. */
  statuses: string[];
}

interface Computed extends Trends {
  at: number;
  version: number;
}

const computed = new WeakMap<ServiceContext, Computed>();
const logger = getLogger(["wren", "trends"]);

export async function currentTrends(ctx: ServiceContext): Promise<Trends> {
  const now = ctx.clock.now().getTime();
  const version = ctx.storage.version();
  const kept = computed.get(ctx);
  const age = kept ? now - kept.at : Number.POSITIVE_INFINITY;
  if (kept && (age < REFRESH_MS || (kept.version === version && age < STALE_MS))) return kept;
  const fresh = { ...(await computeTrends(ctx, now)), at: now, version };
  computed.set(ctx, fresh);
  // What trends without a review waits for one (the staff's lists show it). Bookkeeping: a
  // storage that cannot write (a full disk) never fails the public trends.
  try {
    await requestReviews(ctx, "tag", fresh.tags);
    await requestReviews(ctx, "status", fresh.statuses);
  } catch (error) {
    logger.warn("Could not ask for the review of new trends: {error}", { error });
  }
  return fresh;
}

const decay = (ageMs: number, halfLifeHours: number) =>
  0.5 ** (Math.max(0, ageMs) / (halfLifeHours * HOUR_MS));

async function computeTrends(ctx: ServiceContext, now: number): Promise<Trends> {
  const statuses = await recentCandidates(ctx, now);
  return {
    tags: trendingTags(statuses, now),
    statuses: await trendingStatuses(ctx, statuses, now),
  };
}

/** Recent public statuses by accounts that may trend, newest first. */
async function recentCandidates(ctx: ServiceContext, now: number): Promise<Status[]> {
  const sinceId = idFromTime(new Date(now - WINDOW_HOURS * HOUR_MS));
  const ids: string[] = [];
  let maxId: string | undefined;
  while (ids.length < SCANNED_MAX) {
    const entries = await ctx.storage.statuses.listPublicEntries(
      { limit: PAGE, sinceId, maxId },
      { origin: "all" },
    );
    ids.push(...entries.map((e) => e.status_id));
    if (entries.length < PAGE) break;
    maxId = entries.at(-1)?.status_id;
  }
  const records = await ctx.storage.statuses.getMany(ids);
  const found = ids.flatMap((id) => records.get(id) ?? []);
  const authors = await ctx.storage.accounts.getMany(found.map((s) => s.accountId));
  return found.filter((s) => {
    const author = authors.get(s.accountId);
    return (
      !s.deleted &&
      s.visibility === "public" &&
      s.reblogOfId === null &&
      author?.discoverable &&
      !author.suspended &&
      !isSilenced(author) &&
      !author.bot
    );
  });
}

function trendingTags(statuses: readonly Status[], now: number): string[] {
  // Per tag, each account's newest use (statuses come newest first).
  const uses = new Map<string, Map<string, number>>();
  for (const status of statuses) {
    const at = timeFromId(status.id).getTime();
    for (const tag of new Set(status.tags.slice(0, TAGS_PER_STATUS))) {
      const byAccount = uses.get(tag) ?? new Map<string, number>();
      if (!byAccount.has(status.accountId)) byAccount.set(status.accountId, at);
      uses.set(tag, byAccount);
    }
  }
  const scored: [string, number][] = [];
  for (const [tag, byAccount] of uses) {
    if (byAccount.size < MIN_TAG_ACCOUNTS) continue;
    let score = 0;
    for (const at of byAccount.values()) score += decay(now - at, TAG_HALF_LIFE_HOURS);
    scored.push([tag, score]);
  }
  return scored
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, TAGS_KEPT)
    .map(([tag]) => tag);
}

async function trendingStatuses(
  ctx: ServiceContext,
  statuses: readonly Status[],
  now: number,
): Promise<string[]> {
  const eligible = statuses.filter(
    (s) => !s.sensitive && s.spoilerText === "" && s.inReplyToId === null,
  );
  const counts = await ctx.storage.joined.statusCounts(eligible.map((s) => s.id));
  const scored: [Status, number][] = [];
  for (const status of eligible) {
    const c = counts.get(status.id);
    const interactions = (c?.reblogs ?? 0) + (c?.favourites ?? 0);
    if (interactions < MIN_INTERACTIONS) continue;
    const age = now - timeFromId(status.id).getTime();
    scored.push([status, interactions * decay(age, STATUS_HALF_LIFE_HOURS)]);
  }
  scored.sort((a, b) => b[1] - a[1] || compareIds(b[0].id, a[0].id));
  const perAuthor = new Map<string, number>();
  const out: string[] = [];
  for (const [status] of scored) {
    const n = perAuthor.get(status.accountId) ?? 0;
    if (n >= STATUSES_PER_AUTHOR) continue;
    perAuthor.set(status.accountId, n + 1);
    out.push(status.id);
    if (out.length === STATUSES_KEPT) break;
  }
  return out;
}
