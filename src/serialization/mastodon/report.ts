// The Report entity (POST /api/v1/reports): a report as its reporter sees it, with the reported
// account. Pure: the caller renders the account.

import type { Report } from "../../domain/report.ts";
import type { AccountJson } from "./account.ts";

export interface ReportJson {
  id: string;
  action_taken: boolean;
  action_taken_at: string | null;
  category: Report["category"];
  comment: string;
  forwarded: boolean;
  created_at: string;
  status_ids: string[] | null;
  rule_ids: string[] | null;
  target_account: AccountJson;
}

/** The fields the user's Report and the moderators' Admin::Report share. */
export function reportBasics(report: Report) {
  return {
    id: report.id,
    action_taken: report.actionTakenAt !== null,
    action_taken_at: report.actionTakenAt,
    category: report.category,
    comment: report.comment,
    forwarded: report.forwarded,
    created_at: report.createdAt,
  };
}

export function serializeReport(report: Report, targetAccount: AccountJson): ReportJson {
  return {
    ...reportBasics(report),
    // Mastodon answers null rather than an empty list for both.
    status_ids: report.statusIds.length > 0 ? report.statusIds : null,
    rule_ids: report.ruleIds.length > 0 ? report.ruleIds : null,
    target_account: targetAccount,
  };
}
