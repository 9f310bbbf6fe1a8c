// Mastodon's AnnualReport and AsyncRefresh entities, and the Mastodon-Async-Refresh header. Pure.

import type { AnnualReport, AnnualReportData } from "../../domain/annual-report.ts";
import type { AsyncRefresh } from "../../services/async-refreshes/async-refreshes.ts";

export interface AnnualReportJson {
  year: number;
  data: AnnualReportData;
  schema_version: number;
  /** Mastodon links a public page of the report; Wren has none to link. */
  share_url: null;
  account_id: string;
}

export function serializeAnnualReport(report: AnnualReport): AnnualReportJson {
  return {
    year: report.year,
    data: report.data,
    schema_version: report.schemaVersion,
    share_url: null,
    account_id: report.accountId,
  };
}

export interface AsyncRefreshJson {
  id: string;
  status: AsyncRefresh["status"];
  result_count: number | null;
}

export function serializeAsyncRefresh(refresh: AsyncRefresh): { async_refresh: AsyncRefreshJson } {
  return {
    async_refresh: { id: refresh.id, status: refresh.status, result_count: refresh.resultCount },
  };
}

/** `Mastodon-Async-Refresh: id="…", retry=2[, result_count=n]` (methods/async_refreshes). */
export function asyncRefreshHeader(refresh: AsyncRefresh, retrySeconds: number): string {
  const count = refresh.resultCount === null ? "" : `, result_count=${refresh.resultCount}`;
  return `id="${refresh.id}", retry=${retrySeconds}${count}`;
}
