// A report a local user asked to forward: a Flag from the instance actor to the reported
// account's server (`forwarded`) and to the chosen servers among those the reported statuses
// reply to (one account's inbox each; the shared inbox when it has one). Reports received from
// other servers are never forwarded.

import { isLocal } from "../../domain/account.ts";
import type { Report } from "../../domain/report.ts";
import { flagActivity } from "../../serialization/activitypub/to-flag.ts";
import { repliedToServers } from "../../services/reports/forward-targets.ts";
import type { Outbox } from "./deliver.ts";

export async function sendFlag(outbox: Outbox, report: Report): Promise<void> {
  if (!report.forwarded && report.forwardedToDomains.length === 0) return;
  const { storage } = outbox.ctx;
  const accounts = await storage.accounts.getMany([report.accountId, report.targetAccountId]);
  const reporter = accounts.get(report.accountId);
  const target = accounts.get(report.targetAccountId);
  if (!reporter || !isLocal(reporter) || !target || isLocal(target)) return;
  const found = await storage.statuses.getMany(report.statusIds);
  const statuses = report.statusIds.flatMap((id) => found.get(id) ?? []);
  const recipients = report.forwarded ? [target] : [];
  if (report.forwardedToDomains.length > 0) {
    const repliedTo = await repliedToServers(outbox.ctx, statuses);
    for (const domain of report.forwardedToDomains) {
      const account = repliedTo.get(domain)?.[0];
      if (account) recipients.push(account);
    }
  }
  const flag = flagActivity(
    report,
    outbox.instanceActorUri(),
    target.uri,
    statuses.map((s) => s.uri),
  );
  await outbox.sendAsInstance(recipients, flag);
}
