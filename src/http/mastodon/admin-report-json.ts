// Renders reports as Mastodon's Admin::Report entity for a moderator: the accounts the report
// names as Admin::Accounts, its statuses as the moderator sees them (deleted ones left out), the
// rules it cites. One batch for a whole page.

import type { Account } from "../../domain/account.ts";
import {
  type AdminAccountJson,
  serializeAdminAccount,
} from "../../serialization/mastodon/admin-account.ts";
import {
  type AdminReportJson,
  serializeAdminReport,
} from "../../serialization/mastodon/admin-report.ts";
import { serializeRules } from "../../serialization/mastodon/instance.ts";
import type { ServiceContext } from "../../services/context.ts";
import { currentRules } from "../../services/instance/rules.ts";
import type { ReportDetails } from "../../services/reports/moderate-report.ts";
import { loadAdminAccountViews } from "../../views/admin-account-view.ts";
import { urlContext } from "./account-json.ts";
import { renderStatuses } from "./status-json.ts";

export async function renderAdminReports(
  ctx: ServiceContext,
  details: readonly ReportDetails[],
  moderatorId: string,
): Promise<AdminReportJson[]> {
  const accounts = new Map<string, Account>();
  for (const d of details) for (const [id, account] of d.accounts) accounts.set(id, account);
  const urls = urlContext(ctx);
  const [views, rules, statuses] = await Promise.all([
    loadAdminAccountViews(ctx, [...accounts.values()]),
    currentRules(ctx),
    Promise.all(details.map((d) => renderStatuses(ctx, d.statuses, moderatorId))),
  ]);
  const admin = new Map<string, AdminAccountJson>(
    views.map((v) => [v.view.account.id, serializeAdminAccount(v, urls)]),
  );
  return details.flatMap((d, i) => {
    const json = serializeAdminReport(d.report, {
      accounts: admin,
      statuses: statuses[i] ?? [],
      rules: serializeRules(rules.filter((rule) => d.report.ruleIds.includes(rule.id))),
    });
    return json ? [json] : [];
  });
}
