// The admin dimensions (Mastodon's POST /api/v1/admin/dimensions): the top values of something
// over the period, counted from the records. Answered: languages (of local posts), sources (the
// apps new users signed up with; "web" without one), servers (remote servers by posts received),
// software_versions, tag_servers, tag_languages and instance_languages. Not answered (left out):
// space_usage (no sizes are kept per kind of data) and instance_accounts (accounts are not listed
// by server).

import { timeFromId } from "../../domain/ids.ts";
import { WREN_VERSION } from "../../domain/software.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { findAdminTag } from "../tags/admin-tags.ts";
import type { MeasureParams } from "./measures.ts";
import {
  dayOfTime,
  domainsOf,
  localStatuses,
  ofDomain,
  type Period,
  remoteStatuses,
  requiredParam,
  tagEntries,
} from "./period.ts";

export const DIMENSION_KEYS = [
  "languages",
  "sources",
  "servers",
  "software_versions",
  "tag_servers",
  "tag_languages",
  "instance_languages",
] as const;

export interface DimensionItem {
  key: string;
  humanKey: string;
  value: string;
}

export interface Dimension {
  key: string;
  data: DimensionItem[];
}

const languageNames = new Intl.DisplayNames(["en"], { type: "language" });
const languageName = (code: string) => {
  try {
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
};

/** The `limit` most frequent values, most frequent first (ties by key). */
function top(values: readonly string[], limit: number, name: (key: string) => string) {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([key, count]) => ({ key, humanKey: name(key), value: String(count) }));
}

const languagesOf = (statuses: readonly Status[]) =>
  statuses.flatMap((s) => (s.language ? [s.language] : []));

async function taggedStatuses(ctx: ServiceContext, id: string, period: Period) {
  const tag = await findAdminTag(ctx, id);
  const entries = await tagEntries(ctx, tag.key, period);
  return entries.filter((e) => {
    const day = dayOfTime(timeFromId(e.status_id).toISOString());
    return day >= period.from && day <= period.to;
  });
}

async function dataOf(
  ctx: ServiceContext,
  key: string,
  period: Period,
  params: MeasureParams,
  limit: number,
): Promise<DimensionItem[] | undefined> {
  const same = (k: string) => k;
  switch (key) {
    case "languages":
      return top(languagesOf(await localStatuses(ctx, period)), limit, languageName);
    case "sources": {
      const users = (await ctx.storage.users.list()).filter((u) => {
        const day = dayOfTime(u.createdAt);
        return day >= period.from && day <= period.to;
      });
      const apps = await ctx.storage.apps.getMany(
        users.flatMap((u) => (u.createdByAppId ? [u.createdByAppId] : [])),
      );
      const names = users.map(
        (u) => (u.createdByAppId && apps.get(u.createdByAppId)?.name) || "web",
      );
      return top(names, limit, same);
    }
    case "servers": {
      const statuses = await remoteStatuses(ctx, period);
      const domains = await domainsOf(
        ctx,
        statuses.map((s) => s.accountId),
      );
      return top(
        statuses.flatMap((s) => domains.get(s.accountId) ?? []),
        limit,
        same,
      );
    }
    case "software_versions":
      return [
        { key: "wren", humanKey: "Wren", value: WREN_VERSION },
        { key: "nodejs", humanKey: "Node.js", value: process.versions.node },
      ];
    case "tag_servers": {
      const entries = await taggedStatuses(ctx, requiredParam(params, key, "id"), period);
      const domains = await domainsOf(
        ctx,
        entries.map((e) => e.account_id),
      );
      return top(
        entries.flatMap((e) => domains.get(e.account_id) ?? []),
        limit,
        same,
      );
    }
    case "tag_languages": {
      const entries = await taggedStatuses(ctx, requiredParam(params, key, "id"), period);
      const statuses = await ctx.storage.statuses.getMany(entries.map((e) => e.status_id));
      return top(languagesOf([...statuses.values()]), limit, languageName);
    }
    case "instance_languages": {
      const domain = requiredParam(params, key, "domain");
      const statuses = await remoteStatuses(ctx, period);
      const from = await ofDomain(ctx, statuses, (s) => s.accountId, domain);
      return top(languagesOf(from), limit, languageName);
    }
    default:
      return undefined;
  }
}

export async function dimensions(
  ctx: ServiceContext,
  keys: readonly string[],
  period: Period,
  params: MeasureParams,
  limit: number,
): Promise<Dimension[]> {
  const out: Dimension[] = [];
  for (const key of new Set(keys)) {
    const data = await dataOf(ctx, key, period, params, limit);
    if (data) out.push({ key, data });
  }
  return out;
}
