// Mastodon's Admin::Report entity: a report as the moderators see it, each account named in it
// as an Admin::Account, its statuses as the moderator would see them, the rules it cites. Pure:
// the caller renders the accounts and statuses.

import type { Report } from "../../domain/report.ts";
import type { AdminAccountJson } from "./admin-account.ts";
import type { RuleJson } from "./instance.ts";
import { reportBasics } from "./report.ts";
import type { StatusJson } from "./status.ts";

export interface AdminReportJson {
  id: string;
  action_taken: boolean;
  action_taken_at: string | null;
  category: Report["category"];
  comment: string;
  forwarded: boolean;
  created_at: string;
  updated_at: string;
  account: AdminAccountJson;
  target_account: AdminAccountJson;
  assigned_account: AdminAccountJson | null;
  action_taken_by_account: AdminAccountJson | null;
  statuses: StatusJson[];
  rules: RuleJson[];
}

export interface AdminReportParts {
  /** The Admin::Account of every account the report names, by id. */
  accounts: ReadonlyMap<string, AdminAccountJson>;
  statuses: StatusJson[];
  rules: RuleJson[];
}

export function serializeAdminReport(
  report: Report,
  parts: AdminReportParts,
): AdminReportJson | undefined {
  const named = (id: string | null) => (id === null ? null : (parts.accounts.get(id) ?? null));
  const account = named(report.accountId);
  const target = named(report.targetAccountId);
  // A report whose reporter or target is gone cannot be shown as the entity requires.
  if (!account || !target) return undefined;
  return {
    ...reportBasics(report),
    updated_at: report.updatedAt,
    account,
    target_account: target,
    assigned_account: named(report.assignedAccountId),
    action_taken_by_account: named(report.actionTakenById),
    statuses: parts.statuses,
    rules: parts.rules,
  };
}
