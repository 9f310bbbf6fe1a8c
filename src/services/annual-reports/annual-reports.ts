// The use cases behind /api/v1/annual_reports: asking for a report (generate), the job that
// computes and stores it once, and the state a client polls. Mastodon's flow
// (Api::V1::AnnualReportsController, GenerateAnnualReportWorker): a report of the current
// campaign is generated in the background, its progress shown as an async refresh.

import {
  ANNUAL_REPORT_SCHEMA,
  type AnnualReport,
  campaignYear,
} from "../../domain/annual-report.ts";
import {
  type AsyncRefresh,
  finishAsyncRefresh,
  runningAsyncRefresh,
  startAsyncRefresh,
} from "../async-refreshes/async-refreshes.ts";
import type { ServiceContext } from "../context.ts";
import { getAnnualReport, storeAnnualReport } from "./report-records.ts";
import { buildReportData, gatherYearActivity, isEligible } from "./year-activity.ts";

export const ANNUAL_REPORT_JOB = "annual-report.generate";

export type AnnualReportState = "available" | "generating" | "eligible" | "ineligible";

/** Mastodon's refresh key for one account's report of one year. */
const refreshKey = (accountId: string, year: number) => `wrapstodon:${accountId}:${year}`;

async function eligibleNow(ctx: ServiceContext, accountId: string, year: number) {
  if (year !== campaignYear(ctx.clock.now())) return false;
  return isEligible(ctx, accountId, year);
}

/** The state of the account's report of `year`, and the refresh while it is generated. */
export async function annualReportState(
  ctx: ServiceContext,
  accountId: string,
  year: number,
): Promise<{ state: AnnualReportState; refresh?: AsyncRefresh }> {
  if (await getAnnualReport(ctx, accountId, year)) return { state: "available" };
  const refresh = await runningAsyncRefresh(ctx, refreshKey(accountId, year));
  if (refresh) return { state: "generating", refresh };
  return { state: (await eligibleNow(ctx, accountId, year)) ? "eligible" : "ineligible" };
}

/**
 * POST /api/v1/annual_reports/:year/generate. Nothing to do (undefined) outside the campaign,
 * for an ineligible account or when the report exists; otherwise the refresh under way, the
 * job enqueued by whichever request started it.
 */
export async function requestAnnualReport(
  ctx: ServiceContext,
  accountId: string,
  year: number,
): Promise<AsyncRefresh | undefined> {
  if (year !== campaignYear(ctx.clock.now())) return undefined;
  if (await getAnnualReport(ctx, accountId, year)) return undefined;
  const key = refreshKey(accountId, year);
  const running = await runningAsyncRefresh(ctx, key);
  if (running) return running;
  if (!(await eligibleNow(ctx, accountId, year))) return undefined;
  const { refresh, started } = await startAsyncRefresh(ctx, key, accountId);
  if (started) await ctx.jobs.enqueue(ANNUAL_REPORT_JOB, { accountId, year });
  return refresh;
}

/**
 * The job: computes the report from the year's activity and stores it, once (a retried or
 * duplicate job finds it stored), then marks the refresh finished.
 */
export async function generateAnnualReport(
  ctx: ServiceContext,
  accountId: string,
  year: number,
): Promise<void> {
  const account = await ctx.storage.accounts.get(accountId);
  if (account && !(await getAnnualReport(ctx, accountId, year))) {
    const activity = await gatherYearActivity(ctx, accountId, year);
    const report: AnnualReport = {
      accountId,
      year,
      schemaVersion: ANNUAL_REPORT_SCHEMA,
      data: await buildReportData(ctx, accountId, activity),
      createdAt: ctx.clock.now().toISOString(),
      viewedAt: null,
    };
    await storeAnnualReport(ctx, report);
  }
  await finishAsyncRefresh(ctx, refreshKey(accountId, year), accountId, account ? 1 : 0);
}
