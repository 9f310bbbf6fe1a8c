// Admin operations on reports (`wren report list|show|resolve|reopen`): what the moderators
// need to read a report at a terminal, accounts by handle and statuses as one line of text.

import { z } from "zod";
import { type Account, acctOf } from "../domain/account.ts";
import { type Rule, ruleText } from "../domain/instance-rules.ts";
import type { Report } from "../domain/report.ts";
import { htmlToText } from "../domain/text/html.ts";
import type { ServiceContext } from "../services/context.ts";
import { currentRules } from "../services/instance/rules.ts";
import {
  listReports,
  type ReportDetails,
  reopenReport,
  resolveReport,
  showReport,
} from "../services/reports/moderate-report.ts";
import type { Operation } from "./operations.ts";

function op<S extends z.ZodType>(definition: Operation<S>): Operation<S> {
  return definition;
}

/** An account by handle; a deleted record by its id. */
function handleOf(accounts: Map<string, Account>, id: string | null): string | null {
  if (id === null) return null;
  const account = accounts.get(id);
  return account ? acctOf(account) : `(account ${id})`;
}

export interface ReportSummary {
  id: string;
  createdAt: string;
  category: Report["category"];
  reporter: string;
  target: string;
  statusCount: number;
  comment: string;
  forwarded: boolean;
  /** Received from another server (a Flag). */
  remote: boolean;
  actionTakenAt: string | null;
  actionTakenBy: string | null;
}

function summaryOf({ report, accounts }: ReportDetails): ReportSummary {
  return {
    id: report.id,
    createdAt: report.createdAt,
    category: report.category,
    reporter: handleOf(accounts, report.accountId) as string,
    target: handleOf(accounts, report.targetAccountId) as string,
    statusCount: report.statusIds.length,
    comment: report.comment,
    forwarded: report.forwarded,
    remote: report.uri !== null,
    actionTakenAt: report.actionTakenAt,
    actionTakenBy: handleOf(accounts, report.actionTakenById),
  };
}

export interface ReportStatusLine {
  id: string;
  url: string;
  deleted: boolean;
  text: string;
}

export interface ReportDetail extends ReportSummary {
  targetUri: string | null;
  /** The cited rules, by id, with their text ("" for a rule since removed). */
  rules: { id: string; text: string }[];
  forwardedToDomains: string[];
  /** The Flag activity id of a received report. */
  uri: string | null;
  statuses: ReportStatusLine[];
  /** Reported statuses no longer stored. */
  missingStatusIds: string[];
}

function detailOf(rules: readonly Rule[], details: ReportDetails): ReportDetail {
  const { report, accounts, statuses } = details;
  const found = new Set(statuses.map((s) => s.id));
  return {
    ...summaryOf(details),
    targetUri: accounts.get(report.targetAccountId)?.uri ?? null,
    rules: report.ruleIds.map((id) => ({ id, text: ruleText(rules, id) ?? "" })),
    forwardedToDomains: report.forwardedToDomains,
    uri: report.uri,
    statuses: statuses.map((s) => ({
      id: s.id,
      url: s.url,
      deleted: s.deleted,
      text: s.text !== "" ? s.text : htmlToText(s.contentHtml),
    })),
    missingStatusIds: report.statusIds.filter((id) => !found.has(id)),
  };
}

const idArg = z.string().regex(/^[0-9]{1,25}$/, "must be a report id");

export const REPORT_OPERATIONS = {
  "report.list": op({
    args: z.object({
      resolved: z.boolean().default(false),
      limit: z.number().int().min(1).max(1000).default(100),
    }),
    async run(ctx: ServiceContext, args) {
      const reports = await listReports(ctx, args.resolved, { limit: args.limit });
      return reports.map(summaryOf);
    },
  }),
  "report.show": op({
    args: z.object({ id: idArg }),
    async run(ctx: ServiceContext, args) {
      return detailOf(await currentRules(ctx), await showReport(ctx, args.id));
    },
  }),
  "report.resolve": op({
    args: z.object({ id: idArg, by: z.string().optional() }),
    async run(ctx: ServiceContext, args) {
      const { report, changed } = await resolveReport(ctx, args.id, args.by);
      return { id: report.id, changed, actionTakenAt: report.actionTakenAt };
    },
  }),
  "report.reopen": op({
    args: z.object({ id: idArg }),
    async run(ctx: ServiceContext, args) {
      const { report, changed } = await reopenReport(ctx, args.id);
      return { id: report.id, changed };
    },
  }),
};
