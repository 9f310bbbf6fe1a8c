/**
 * AnnualReport and WrappedAnnualReports, from Mastodon's documentation (entities/AnnualReport.md),
 * with `data` as schema version 2 describes it; AsyncRefresh (entities/AsyncRefresh.md).
 */
import { arrayOf, entity, integer, nullable, object, oneOf, string, uri } from "../json-schema.ts";

const statusId = nullable(string);

/** `data` of schema version 2 (Mastodon 4.6): the archetype and the year in a few figures. */
const AnnualReportDataV2 = object(
  {
    archetype: oneOf("lurker", "booster", "pollster", "replier", "oracle"),
    time_series: arrayOf(object({ month: integer, statuses: integer, followers: integer })),
    top_hashtags: arrayOf(object({ name: string, count: integer })),
    top_statuses: object({ by_reblogs: statusId, by_favourites: statusId, by_replies: statusId }),
  },
  {},
  "The report's figures (schema version 2)",
);

export const AnnualReport = object(
  {
    year: integer,
    data: AnnualReportDataV2,
    schema_version: { type: "integer", enum: [2] },
    share_url: nullable(uri),
    account_id: string,
  },
  {},
  "A summary of a user's activity during a year",
);

export const WrappedAnnualReports = object(
  {
    annual_reports: arrayOf(entity("AnnualReport")),
    accounts: arrayOf(entity("Account")),
    statuses: arrayOf(entity("Status")),
  },
  {},
  "Annual reports with the accounts and statuses they name",
);

export const AsyncRefresh = object(
  { id: string, status: oneOf("running", "finished") },
  { result_count: nullable(integer) },
  "The progress of an asynchronous refresh",
);
