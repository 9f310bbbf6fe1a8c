// The period of an admin metric (Mastodon's start_at..end_at): whole UTC days, both ends
// included, and the walks over the records created in it, bounded (a metric of a busy server
// counts the newest MAX_SCANNED records of a kind at most).

import { badRequest, unprocessable } from "../../domain/errors.ts";
import { idFromTime } from "../../domain/ids.ts";
import type { Status, TimelineEntry } from "../../domain/status.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";

const DAY_MS = 86_400_000;
/** The longest period asked for, in days. */
export const MAX_PERIOD_DAYS = 400;
const PAGE = 400;
const MAX_SCANNED = 50_000;

export interface Period {
  /** YYYY-MM-DD, first day. */
  from: string;
  /** YYYY-MM-DD, last day (included). */
  to: string;
}

/** The period of two dates (a time part is ignored, as Mastodon does); 422 when not valid. */
export function periodOf(startAt: string, endAt: string): Period {
  const day = (text: string) => {
    const match = /^\d{4}-\d{2}-\d{2}/.exec(text.trim());
    const ms = match ? Date.parse(`${match[0]}T00:00:00Z`) : Number.NaN;
    if (Number.isNaN(ms)) throw unprocessable(`Invalid date: ${text}`);
    return ms;
  };
  const from = day(startAt);
  const to = day(endAt);
  if (to < from) throw unprocessable("end_at is before start_at");
  if ((to - from) / DAY_MS >= MAX_PERIOD_DAYS) {
    throw unprocessable(`The period is longer than ${MAX_PERIOD_DAYS} days`);
  }
  return { from: isoDay(from), to: isoDay(to) };
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The days of the period, in order. */
export function daysOf(period: Period): string[] {
  const out: string[] = [];
  for (let ms = Date.parse(period.from); isoDay(ms) <= period.to; ms += DAY_MS)
    out.push(isoDay(ms));
  return out;
}

/** The period of the same length just before. */
export function previousPeriod(period: Period): Period {
  const length = Date.parse(period.to) - Date.parse(period.from) + DAY_MS;
  return {
    from: isoDay(Date.parse(period.from) - length),
    to: isoDay(Date.parse(period.from) - DAY_MS),
  };
}

/** The period as an id window (ids are creation times, domain/ids.ts). */
export function idWindow(period: Period, limit = PAGE): IdPage {
  const start = Date.parse(period.from);
  const end = Date.parse(period.to) + DAY_MS;
  return {
    limit,
    sinceId: (BigInt(idFromTime(new Date(start))) - 1n).toString(),
    maxId: idFromTime(new Date(end)),
  };
}

/** A record's day, from its ISO time. */
export const dayOfTime = (iso: string): string => iso.slice(0, 10);

/** Walks a newest-first id-paged list over the period. */
async function walk<T>(
  period: Period,
  read: (page: IdPage) => Promise<T[]>,
  idOf: (item: T) => string,
): Promise<T[]> {
  const window = idWindow(period);
  const out: T[] = [];
  let maxId = window.maxId;
  while (out.length < MAX_SCANNED) {
    const page = await read({ ...window, maxId });
    out.push(...page);
    if (page.length < PAGE) break;
    maxId = idOf(page[page.length - 1] as T);
  }
  return out;
}

/** Local statuses (boosts aside) created in the period. */
export async function localStatuses(ctx: ServiceContext, period: Period): Promise<Status[]> {
  const users = await ctx.storage.users.list();
  const out: Status[] = [];
  for (const user of users) {
    out.push(
      ...(await walk(
        period,
        (page) =>
          ctx.storage.statuses.listByAccount(user.accountId, page, { excludeReblogs: true }),
        (s) => s.id,
      )),
    );
  }
  return out;
}

/** Remote statuses (boosts aside, deleted ones left out) received in the period. */
export async function remoteStatuses(ctx: ServiceContext, period: Period): Promise<Status[]> {
  const all = await walk(
    period,
    (page) => ctx.storage.statuses.listRemote(page),
    (s) => s.id,
  );
  return all.filter((s) => !s.deleted && s.reblogOfId === null);
}

/** Public statuses carrying the hashtag, created in the period. */
export function tagEntries(
  ctx: ServiceContext,
  tag: string,
  period: Period,
): Promise<TimelineEntry[]> {
  return walk(
    period,
    (page) => ctx.storage.statuses.listTagEntries(tag, page, { origin: "all" }),
    (e) => e.status_id,
  );
}

/** The domains of the accounts (null for local ones). */
export async function domainsOf(
  ctx: ServiceContext,
  accountIds: readonly string[],
): Promise<Map<string, string | null>> {
  const accounts = await ctx.storage.accounts.getMany([...new Set(accountIds)]);
  return new Map([...accounts].map(([id, account]) => [id, account.domain]));
}

/** The `tag_uses[id]`-like parameter a key needs (domains lower-cased); 400 when missing. */
export function requiredParam(
  params: Partial<Record<string, { id?: string; domain?: string }>>,
  key: string,
  field: "id" | "domain",
): string {
  const value = params[key]?.[field];
  if (typeof value !== "string" || value.trim() === "") {
    throw badRequest(`param is missing or the value is empty: ${key}[${field}]`);
  }
  return field === "domain" ? value.trim().toLowerCase() : value.trim();
}

/** The items whose account (`accountOf`) is of the remote `domain`. */
export async function ofDomain<T>(
  ctx: ServiceContext,
  items: readonly T[],
  accountOf: (item: T) => string,
  domain: string,
): Promise<T[]> {
  const domains = await domainsOf(ctx, items.map(accountOf));
  return items.filter((item) => domains.get(accountOf(item)) === domain);
}
