// The moderators' report queue over the admin API (Mastodon's Admin::ReportsController): list
// with filters, take a report on or give it back, recategorise it, resolve and reopen it as the
// signed-in moderator. Each change goes through the report's lock (moderate-report.ts), and one
// that asks for the state the report is already in answers it unchanged, as Mastodon does.

import { isResolved, type Report } from "../../domain/report.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { fillPage } from "../fill-page.ts";
import { currentRules } from "../instance/rules.ts";
import { categoryOf } from "./file-report.ts";
import { changeReport, type ReportDetails, reportDetails } from "./moderate-report.ts";

export interface AdminReportFilter {
  /** Only resolved (true) or only open (false) reports; all when absent. */
  resolved?: boolean;
  /** Filed by this account. */
  accountId?: string;
  /** About this account. */
  targetAccountId?: string;
}

export interface AdminReportPage {
  details: ReportDetails[];
  /** The ids the page looked at, for a Link header that moves past reports left out. */
  newestId: string | undefined;
  oldestId: string | undefined;
}

export async function listAdminReports(
  ctx: ServiceContext,
  filter: AdminReportFilter,
  page: IdPage,
): Promise<AdminReportPage> {
  const matches = (r: Report) =>
    (filter.accountId === undefined || r.accountId === filter.accountId) &&
    (filter.targetAccountId === undefined || r.targetAccountId === filter.targetAccountId);
  const filled = await fillPage(page, {
    read: (window) =>
      ctx.storage.reports.list(
        window,
        filter.resolved === undefined ? undefined : { resolved: filter.resolved },
      ),
    idOf: (report) => report.id,
    keep: async (batch) => batch.map((r) => (matches(r) ? r : undefined)),
  });
  return {
    details: await reportDetails(ctx, filled.items),
    newestId: filled.newestId,
    oldestId: filled.oldestId,
  };
}

async function detailsOfOne(ctx: ServiceContext, report: Report): Promise<ReportDetails> {
  const [details] = await reportDetails(ctx, [report]);
  return details as ReportDetails;
}

/** Takes the report on (a moderator's id) or gives it back (null). */
export async function assignReport(
  ctx: ServiceContext,
  id: string,
  moderatorId: string | null,
): Promise<ReportDetails> {
  const { report } = await changeReport(ctx, id, (r) =>
    r.assignedAccountId === moderatorId ? undefined : { ...r, assignedAccountId: moderatorId },
  );
  return detailsOfOne(ctx, report);
}

/** A new category and cited rules, settled as when filing (rules mean `violation`). */
export async function recategoriseReport(
  ctx: ServiceContext,
  id: string,
  input: { category: string | undefined; ruleIds: readonly string[] | undefined },
): Promise<ReportDetails> {
  const rules = await currentRules(ctx);
  const { report } = await changeReport(ctx, id, (r) => {
    const settled = categoryOf(rules, {
      category: input.category ?? (input.ruleIds ? undefined : r.category),
      ruleIds: input.ruleIds ?? (input.category === undefined ? r.ruleIds : []),
    });
    return { ...r, ...settled };
  });
  return detailsOfOne(ctx, report);
}

/** Resolved by the signed-in moderator (an already resolved report stays as it was). */
export async function resolveReportAs(
  ctx: ServiceContext,
  id: string,
  moderatorId: string,
): Promise<ReportDetails> {
  const { report } = await changeReport(ctx, id, (r) =>
    isResolved(r)
      ? undefined
      : { ...r, actionTakenAt: ctx.clock.now().toISOString(), actionTakenById: moderatorId },
  );
  return detailsOfOne(ctx, report);
}
