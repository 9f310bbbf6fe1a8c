// The annual reports ("Wrapstodon") of the signed-in user: GET /api/v1/annual_reports (the
// unread ones), GET /api/v1/annual_reports/:year, POST …/:year/generate, POST …/:year/read and
// GET …/:year/state, with Mastodon's scopes (read:accounts, write:accounts) and answers. A
// report comes with the accounts and statuses it names, rendered by the ordinary read side.

import type { Context, Hono } from "hono";
import {
  type AnnualReport,
  parseReportYear,
  reportAccountIds,
  reportStatusIds,
} from "../../../domain/annual-report.ts";
import { notFound } from "../../../domain/errors.ts";
import {
  asyncRefreshHeader,
  serializeAnnualReport,
} from "../../../serialization/mastodon/annual-report.ts";
import {
  annualReportState,
  requestAnnualReport,
} from "../../../services/annual-reports/annual-reports.ts";
import {
  getAnnualReport,
  listAnnualReports,
  markAnnualReportRead,
} from "../../../services/annual-reports/report-records.ts";
import type { AsyncRefresh } from "../../../services/async-refreshes/async-refreshes.ts";
import type { ServiceContext } from "../../../services/context.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { renderAccounts } from "../account-json.ts";
import { renderStatuses } from "../status-json.ts";

/** Mastodon asks clients to come back after two seconds while a report is generated. */
const RETRY_SECONDS = 2;

/** The year of the path; anything that is not a year names no report (404). */
function yearOf(c: Context<HttpEnv>): number {
  const year = parseReportYear(c.req.param("year") ?? "");
  if (year === null) throw notFound();
  return year;
}

function announceRefresh(c: Context<HttpEnv>, refresh: AsyncRefresh): void {
  c.header("Mastodon-Async-Refresh", asyncRefreshHeader(refresh, RETRY_SECONDS));
}

/** WrappedAnnualReports: the reports with the accounts and statuses they name. */
async function renderWrapped(
  ctx: ServiceContext,
  reports: readonly AnnualReport[],
  viewerId: string,
) {
  const accountIds = [...new Set(reports.flatMap(reportAccountIds))];
  const statusIds = [...new Set(reports.flatMap(reportStatusIds))];
  const [accounts, statuses] = await Promise.all([
    ctx.storage.accounts.getMany(accountIds),
    ctx.storage.statuses.getMany(statusIds),
  ]);
  return {
    annual_reports: reports.map(serializeAnnualReport),
    accounts: await renderAccounts(ctx, [...accounts.values()]),
    statuses: await renderStatuses(ctx, [...statuses.values()], viewerId),
  };
}

export function annualReportRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const read = access({ scopes: ["read:accounts"], user: true });
  const write = access({ scopes: ["write:accounts"], user: true });

  app.get("/api/v1/annual_reports", read, async (c) => {
    const viewer = requireViewer(c);
    const reports = await listAnnualReports(ctx, viewer.account.id);
    const unread = reports.filter((report) => report.viewedAt === null);
    return c.json(await renderWrapped(ctx, unread, viewer.account.id));
  });

  app.get("/api/v1/annual_reports/:year", read, async (c) => {
    const viewer = requireViewer(c);
    const report = await getAnnualReport(ctx, viewer.account.id, yearOf(c));
    if (!report) throw notFound();
    return c.json(await renderWrapped(ctx, [report], viewer.account.id));
  });

  app.get("/api/v1/annual_reports/:year/state", read, async (c) => {
    const viewer = requireViewer(c);
    const { state, refresh } = await annualReportState(ctx, viewer.account.id, yearOf(c));
    if (refresh) announceRefresh(c, refresh);
    return c.json({ state });
  });

  // 202 while the report is generated, 200 when there is nothing to generate (it exists, or
  // the year or the account is not eligible), as Mastodon's documentation gives them.
  app.post("/api/v1/annual_reports/:year/generate", write, async (c) => {
    const viewer = requireViewer(c);
    const refresh = await requestAnnualReport(ctx, viewer.account.id, yearOf(c));
    if (!refresh) return c.json({});
    announceRefresh(c, refresh);
    return c.json({}, 202);
  });

  app.post("/api/v1/annual_reports/:year/read", write, async (c) => {
    const viewer = requireViewer(c);
    await markAnnualReportRead(ctx, viewer.account.id, yearOf(c));
    return c.json({});
  });
}
