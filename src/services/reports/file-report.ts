// A local user reports an account (POST /api/v1/reports), with Mastodon's rules: the statuses
// must be the target's and visible to the reporter (else 404, as for an unknown account), the
// comment is at most 1000 characters, cited rules make the category `violation`, which needs
// existing rules. With `forward`, a report about a remote account is also sent to the servers
// in `forward_to_domains` (by default the target's own) that are the target's or those of
// accounts the statuses reply to: the federation outbox does that on `report.created`, so a
// failed delivery never fails the report.

import type { Account } from "../../domain/account.ts";
import { notFound, unprocessable } from "../../domain/errors.ts";
import { type Rule, ruleText } from "../../domain/instance-rules.ts";
import {
  MAX_REPORT_COMMENT,
  REPORT_CATEGORIES,
  type Report,
  type ReportCategory,
} from "../../domain/report.ts";
import type { ServiceContext } from "../context.ts";
import { currentRules } from "../instance/rules.ts";
import { visibleStatuses } from "../statuses/visibility.ts";
import { repliedToServers } from "./forward-targets.ts";

export interface FileReportInput {
  reporterId: string;
  targetId: string;
  statusIds: readonly string[];
  comment: string;
  forward: boolean;
  forwardToDomains: readonly string[];
  /** As the client gave it; absent means `other` (or `violation` when rules are cited). */
  category: string | undefined;
  ruleIds: readonly string[];
}

function isCategory(value: string): value is ReportCategory {
  return (REPORT_CATEGORIES as readonly string[]).includes(value);
}

/** The category and rule ids as Mastodon settles them: cited rules mean `violation`. */
export function categoryOf(
  rules: readonly Rule[],
  input: Pick<FileReportInput, "category" | "ruleIds">,
): { category: ReportCategory; ruleIds: string[] } {
  const ruleIds = [...new Set(input.ruleIds)];
  if (input.category !== undefined && !isCategory(input.category)) {
    throw unprocessable(
      `Validation failed: Category must be one of ${REPORT_CATEGORIES.join(", ")}`,
    );
  }
  const category = ruleIds.length > 0 ? "violation" : (input.category ?? "other");
  if (category !== "violation") return { category, ruleIds: [] };
  const known = (id: string) => ruleText(rules, id) !== undefined;
  if (ruleIds.length === 0 || !ruleIds.every(known)) {
    throw unprocessable("Validation failed: Rule ids does not reference valid rules");
  }
  return { category, ruleIds };
}

/** The report filed, with the reported account (the answer shows it). */
export async function fileReport(
  ctx: ServiceContext,
  input: FileReportInput,
): Promise<{ report: Report; target: Account }> {
  const target = await ctx.storage.accounts.get(input.targetId);
  if (!target || target.suspended) throw notFound();
  if ([...input.comment].length > MAX_REPORT_COMMENT) {
    throw unprocessable(
      `Validation failed: Comment is too long (maximum is ${MAX_REPORT_COMMENT} characters)`,
    );
  }
  const { category, ruleIds } = categoryOf(await currentRules(ctx), input);

  const wanted = [...new Set(input.statusIds)];
  const found = await ctx.storage.statuses.getMany(wanted);
  const statuses = await visibleStatuses(
    ctx,
    input.reporterId,
    wanted.flatMap((id) => {
      const status = found.get(id);
      return status && status.accountId === target.id ? [status] : [];
    }),
  );
  // Someone else's status, or one the reporter cannot see, is as unknown as a missing one.
  if (statuses.length !== wanted.length) throw notFound();

  let forwarded = false;
  let forwardedToDomains: string[] = [];
  if (input.forward && target.domain !== null) {
    // Without a list, the target's server alone (Mastodon's behaviour before the list existed).
    const targetDomain = target.domain.toLowerCase();
    const asked =
      input.forwardToDomains.length > 0
        ? [...new Set(input.forwardToDomains.map((d) => d.trim().toLowerCase()))]
        : [targetDomain];
    forwarded = asked.includes(targetDomain);
    const repliedTo = await repliedToServers(ctx, statuses);
    forwardedToDomains = asked.filter((d) => d !== targetDomain && repliedTo.has(d));
  }

  const now = ctx.clock.now().toISOString();
  const report: Report = {
    id: ctx.ids.next(),
    accountId: input.reporterId,
    targetAccountId: target.id,
    statusIds: statuses.map((s) => s.id),
    comment: input.comment,
    uri: null,
    createdAt: now,
    category,
    ruleIds,
    forwarded,
    forwardedToDomains,
    actionTakenAt: null,
    actionTakenById: null,
    assignedAccountId: null,
    updatedAt: now,
  };
  await ctx.storage.reports.put(report);
  await ctx.events.publish({ type: "report.created", report });
  return { report, target };
}
