// What the moderators do with reports (`wren report …`, and the admin API: admin-reports.ts): list the open
// or the resolved ones, read one with its accounts and statuses, resolve it, reopen it.
// Resolving and reopening hold the report's lock, so two moderators acting at once leave one
// coherent record, and repeating either is a no-op that says so.

import type { Account } from "../../domain/account.ts";
import { notFound, unprocessable } from "../../domain/errors.ts";
import { isStaff } from "../../domain/permissions.ts";
import { isResolved, type Report } from "../../domain/report.ts";
import type { Status } from "../../domain/status.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";

export interface ReportDetails {
  report: Report;
  /** The accounts the report names (reporter, target, resolver) that still exist, by id. */
  accounts: Map<string, Account>;
  /** The reported statuses that still exist (deleted ones included: the evidence stays). */
  statuses: Status[];
}

async function detailsOf(
  ctx: ServiceContext,
  reports: readonly Report[],
): Promise<ReportDetails[]> {
  const accountIds = new Set<string>();
  const statusIds = new Set<string>();
  for (const r of reports) {
    accountIds.add(r.accountId).add(r.targetAccountId);
    if (r.actionTakenById !== null) accountIds.add(r.actionTakenById);
    if (r.assignedAccountId !== null) accountIds.add(r.assignedAccountId);
    for (const id of r.statusIds) statusIds.add(id);
  }
  const [accounts, statuses] = await Promise.all([
    ctx.storage.accounts.getMany([...accountIds]),
    ctx.storage.statuses.getMany([...statusIds]),
  ]);
  return reports.map((report) => ({
    report,
    accounts,
    statuses: report.statusIds.flatMap((id) => statuses.get(id) ?? []),
  }));
}

export async function listReports(
  ctx: ServiceContext,
  resolved: boolean,
  page: IdPage,
): Promise<ReportDetails[]> {
  return detailsOf(ctx, await ctx.storage.reports.list(page, { resolved }));
}

/** Shown with their accounts and statuses (as listReports and showReport answer them). */
export function reportDetails(
  ctx: ServiceContext,
  reports: readonly Report[],
): Promise<ReportDetails[]> {
  return detailsOf(ctx, reports);
}

export async function showReport(ctx: ServiceContext, id: string): Promise<ReportDetails> {
  const report = await ctx.storage.reports.get(id);
  if (!report) throw notFound("No such report");
  const [details] = await detailsOf(ctx, [report]);
  return details as ReportDetails;
}

/** The local moderator (or admin) named as the one who acts: 404 unknown, 422 not staff. */
async function moderatorOf(ctx: ServiceContext, username: string | undefined) {
  if (username === undefined) return null;
  const account = await ctx.storage.accounts.findByUsername(username, null);
  if (!account) throw notFound(`No local account ${username}`);
  const user = await ctx.storage.users.get(account.id);
  if (!user || !isStaff(user.role)) {
    throw unprocessable(`${account.username} is not a moderator or an admin`);
  }
  return account;
}

export interface ReportChange {
  report: Report;
  /** False when the report already was in the asked state. */
  changed: boolean;
}

export function changeReport(
  ctx: ServiceContext,
  id: string,
  next: (report: Report) => Report | undefined,
): Promise<ReportChange> {
  return ctx.storage.coordination.withLock(`report:${id}`, async () => {
    const report = await ctx.storage.reports.get(id);
    if (!report) throw notFound("No such report");
    const proposed = next(report);
    if (!proposed) return { report, changed: false };
    const updated = { ...proposed, updatedAt: ctx.clock.now().toISOString() };
    await ctx.storage.reports.put(updated);
    return { report: updated, changed: true };
  });
}

/** Marks the report resolved, by the named local account if any (the operator otherwise). */
export async function resolveReport(
  ctx: ServiceContext,
  id: string,
  byUsername?: string,
): Promise<ReportChange> {
  const moderator = await moderatorOf(ctx, byUsername);
  return changeReport(ctx, id, (report) =>
    isResolved(report)
      ? undefined
      : {
          ...report,
          actionTakenAt: ctx.clock.now().toISOString(),
          actionTakenById: moderator?.id ?? null,
        },
  );
}

export async function reopenReport(ctx: ServiceContext, id: string): Promise<ReportChange> {
  return changeReport(ctx, id, (report) =>
    isResolved(report) ? { ...report, actionTakenAt: null, actionTakenById: null } : undefined,
  );
}
