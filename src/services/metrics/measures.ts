// The admin measures (Mastodon's POST /api/v1/admin/measures): a count per day of the period and
// its total, counted from the records (and the activity days, metrics/activity.ts). Only the
// measures Wren's records answer truthfully are given; the others asked for are left out of the
// answer (docs/moderation.md lists them): interactions (no record of when a status was
// favourited), instance_accounts (accounts are not listed by server), instance_follows,
// instance_followers (follows are not listed by server) and instance_media_attachments.

import { timeFromId } from "../../domain/ids.ts";
import type { Report } from "../../domain/report.ts";
import type { ServiceContext } from "../context.ts";
import { findAdminTag } from "../tags/admin-tags.ts";
import { activeDays } from "./activity.ts";
import {
  dayOfTime,
  daysOf,
  domainsOf,
  ofDomain,
  type Period,
  previousPeriod,
  remoteStatuses,
  requiredParam,
  tagEntries,
} from "./period.ts";

export const MEASURE_KEYS = [
  "active_users",
  "new_users",
  "opened_reports",
  "resolved_reports",
  "tag_accounts",
  "tag_uses",
  "tag_servers",
  "instance_statuses",
  "instance_reports",
] as const;
type MeasureKey = (typeof MEASURE_KEYS)[number];

export interface Measure {
  key: MeasureKey;
  unit: string | null;
  total: number;
  /** The same measure over the period just before (Mastodon gives it for some). */
  previousTotal?: number;
  /** Per day of the period (YYYY-MM-DD), in order. */
  data: { date: string; value: number }[];
}

/** What some measures need: `tag_uses[id]`, `instance_statuses[domain]`… */
export type MeasureParams = Partial<Record<string, { id?: string; domain?: string }>>;

/** A day's tally: the count of items, or of distinct members. */
interface Tally {
  perDay: Map<string, number>;
  total: number;
}

function tallyItems(period: Period, days: readonly string[]): Tally {
  const perDay = new Map<string, number>();
  let total = 0;
  for (const day of days) {
    if (day < period.from || day > period.to) continue;
    perDay.set(day, (perDay.get(day) ?? 0) + 1);
    total += 1;
  }
  return { perDay, total };
}

function tallyDistinct(period: Period, pairs: readonly [string, string][]): Tally {
  const byDay = new Map<string, Set<string>>();
  const all = new Set<string>();
  for (const [day, member] of pairs) {
    if (day < period.from || day > period.to) continue;
    const set = byDay.get(day) ?? new Set<string>();
    set.add(member);
    byDay.set(day, set);
    all.add(member);
  }
  return { perDay: new Map([...byDay].map(([d, s]) => [d, s.size])), total: all.size };
}

async function allReports(ctx: ServiceContext): Promise<Report[]> {
  const out: Report[] = [];
  let maxId: string | undefined;
  for (;;) {
    const page = await ctx.storage.reports.list({ limit: 200, maxId });
    out.push(...page);
    if (page.length < 200) return out;
    maxId = page[page.length - 1]?.id;
  }
}

/** The tally of one measure over a period; undefined for a key Wren does not answer. */
async function tallyOf(
  ctx: ServiceContext,
  key: string,
  period: Period,
  params: MeasureParams,
): Promise<Tally | undefined> {
  switch (key) {
    case "active_users": {
      const days = await activeDays(ctx, period.from, period.to);
      return tallyDistinct(
        period,
        [...days].flatMap(([day, ids]) => [...ids].map((id): [string, string] => [day, id])),
      );
    }
    case "new_users":
      return tallyItems(
        period,
        (await ctx.storage.users.list()).map((u) => dayOfTime(u.createdAt)),
      );
    case "opened_reports":
      return tallyItems(
        period,
        (await allReports(ctx)).map((r) => dayOfTime(r.createdAt)),
      );
    case "resolved_reports":
      return tallyItems(
        period,
        (await allReports(ctx)).flatMap((r) =>
          r.actionTakenAt ? [dayOfTime(r.actionTakenAt)] : [],
        ),
      );
    case "tag_accounts":
    case "tag_uses":
    case "tag_servers": {
      const tag = await findAdminTag(ctx, requiredParam(params, key, "id"));
      const entries = await tagEntries(ctx, tag.key, period);
      const day = (statusId: string) => dayOfTime(timeFromId(statusId).toISOString());
      if (key === "tag_uses")
        return tallyItems(
          period,
          entries.map((e) => day(e.status_id)),
        );
      if (key === "tag_accounts") {
        return tallyDistinct(
          period,
          entries.map((e) => [day(e.status_id), e.account_id]),
        );
      }
      const domains = await domainsOf(
        ctx,
        entries.map((e) => e.account_id),
      );
      return tallyDistinct(
        period,
        entries.flatMap((e) => {
          const domain = domains.get(e.account_id);
          return domain ? [[day(e.status_id), domain] as [string, string]] : [];
        }),
      );
    }
    case "instance_statuses": {
      const domain = requiredParam(params, key, "domain");
      const statuses = await remoteStatuses(ctx, period);
      const from = await ofDomain(ctx, statuses, (s) => s.accountId, domain);
      return tallyItems(
        period,
        from.map((s) => dayOfTime(s.createdAt)),
      );
    }
    case "instance_reports": {
      const domain = requiredParam(params, key, "domain");
      const reports = await ofDomain(ctx, await allReports(ctx), (r) => r.targetAccountId, domain);
      return tallyItems(
        period,
        reports.map((r) => dayOfTime(r.createdAt)),
      );
    }
    default:
      return undefined;
  }
}

/** Keys that also give the total of the period before, as Mastodon's do (not the servers'). */
const WITH_PREVIOUS = new Set<string>(MEASURE_KEYS.filter((k) => !k.startsWith("instance_")));

export async function measures(
  ctx: ServiceContext,
  keys: readonly string[],
  period: Period,
  params: MeasureParams,
): Promise<Measure[]> {
  const out: Measure[] = [];
  for (const key of new Set(keys)) {
    const tally = await tallyOf(ctx, key, period, params);
    if (!tally) continue;
    const measure: Measure = {
      key: key as MeasureKey,
      unit: null,
      total: tally.total,
      data: daysOf(period).map((date) => ({ date, value: tally.perDay.get(date) ?? 0 })),
    };
    if (WITH_PREVIOUS.has(key)) {
      const before = await tallyOf(ctx, key, previousPeriod(period), params);
      measure.previousTotal = before?.total ?? 0;
    }
    out.push(measure);
  }
  return out;
}
