// Where generated annual reports are kept: the durable key–value store (both backends, dumped
// and restored with the rest), one entry per account and year. A report is a small document
// written once and read by its key or listed by account, which is all the store needs to do.

import type { AnnualReport } from "../../domain/annual-report.ts";
import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";

const PREFIX = ["wren", "annualReport"];

const keyOf = (accountId: string, year: number) => [...PREFIX, accountId, String(year)];

function isReport(value: unknown): value is AnnualReport {
  const v = value as AnnualReport | null;
  return typeof v === "object" && v !== null && typeof v.year === "number" && !!v.data;
}

export async function getAnnualReport(
  ctx: ServiceContext,
  accountId: string,
  year: number,
): Promise<AnnualReport | undefined> {
  const entry = await ctx.storage.kv.get(keyOf(accountId, year));
  return isReport(entry?.value) ? entry.value : undefined;
}

/** The account's reports, oldest year first. */
export async function listAnnualReports(
  ctx: ServiceContext,
  accountId: string,
): Promise<AnnualReport[]> {
  const entries = await ctx.storage.kv.list([...PREFIX, accountId]);
  return entries
    .map((entry) => entry.value)
    .filter(isReport)
    .sort((a, b) => a.year - b.year);
}

/** Stores the report unless one exists for its account and year; true when this one was stored. */
export function storeAnnualReport(ctx: ServiceContext, report: AnnualReport): Promise<boolean> {
  return ctx.storage.kv.compareAndSet(
    undefined,
    { key: keyOf(report.accountId, report.year), value: report, expiresAt: null },
    ctx.clock.now().toISOString(),
  );
}

/** POST /api/v1/annual_reports/:year/read: marks it read (kept, no longer listed); 404 without one. */
export async function markAnnualReportRead(
  ctx: ServiceContext,
  accountId: string,
  year: number,
): Promise<void> {
  const report = await getAnnualReport(ctx, accountId, year);
  if (!report) throw notFound();
  if (report.viewedAt !== null) return;
  const viewed: AnnualReport = { ...report, viewedAt: ctx.clock.now().toISOString() };
  await ctx.storage.kv.set({ key: keyOf(accountId, year), value: viewed, expiresAt: null });
}
