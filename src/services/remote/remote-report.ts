// Reports that other servers send (Flag): stored for the moderators, once per Flag id.

import type { Account } from "../../domain/account.ts";
import { MAX_REPORT_COMMENT, type Report } from "../../domain/report.ts";
import type { ServiceContext } from "../context.ts";

export interface RemoteReportInput {
  reporter: Account;
  /** The reported local account. */
  target: Account;
  /** Ids of reported statuses (only the target's are kept). */
  statusIds: readonly string[];
  comment: string;
  uri: string | null;
}

export async function receiveReport(
  ctx: ServiceContext,
  input: RemoteReportInput,
): Promise<Report> {
  if (input.uri !== null) {
    const known = await ctx.storage.reports.findByUri(input.uri);
    if (known) return known;
  }
  const statuses = await ctx.storage.statuses.getMany([...new Set(input.statusIds)]);
  const now = ctx.clock.now().toISOString();
  const report: Report = {
    id: ctx.ids.next(),
    accountId: input.reporter.id,
    targetAccountId: input.target.id,
    statusIds: [...statuses.values()]
      .filter((s) => s.accountId === input.target.id)
      .map((s) => s.id),
    comment: [...input.comment].slice(0, MAX_REPORT_COMMENT).join(""),
    uri: input.uri,
    createdAt: now,
    // A Flag tells no category or rules Wren could map; it arrives here, nothing to forward.
    category: "other",
    ruleIds: [],
    forwarded: false,
    forwardedToDomains: [],
    actionTakenAt: null,
    actionTakenById: null,
    assignedAccountId: null,
    updatedAt: now,
  };
  await ctx.storage.reports.put(report);
  return report;
}
