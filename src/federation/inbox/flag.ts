// Flag: another server reports a local account (and some of its statuses) to our moderators.
// The objects are ids; only local accounts and statuses among them count. Stored as a Report.

import type { Flag } from "@fedify/vocab";
import type { Account } from "../../domain/account.ts";
import { textOf } from "../../serialization/activitypub/from-common.ts";
import { rejectsReports } from "../../services/domain-blocks/domain-blocks.ts";
import { receiveReport } from "../../services/remote/remote-report.ts";
import { type InboxCtx, localAccountOf, localStatusOf } from "./sender.ts";

/** More objects than any real report names; the rest are ignored. */
const MAX_OBJECTS = 100;

export async function onFlag(fctx: InboxCtx, flag: Flag, sender: Account): Promise<void> {
  const ctx = fctx.data;
  // A domain block with reject_reports (or suspend): its reports are dropped.
  if (await rejectsReports(ctx, sender.domain)) return;
  let target: Account | undefined;
  const statusIds: string[] = [];
  for (const id of flag.objectIds.slice(0, MAX_OBJECTS)) {
    const account = await localAccountOf(ctx, id);
    if (account) {
      target ??= account;
      continue;
    }
    const status = await localStatusOf(ctx, id);
    if (status) statusIds.push(status.id);
  }
  if (!target && statusIds.length > 0) {
    // Some servers name only statuses: the report is about their author.
    const first = await ctx.storage.statuses.get(statusIds[0] as string);
    target = first ? await ctx.storage.accounts.get(first.accountId) : undefined;
  }
  if (!target) return;
  await receiveReport(ctx, {
    reporter: sender,
    target,
    statusIds,
    comment: textOf(flag.content),
    uri: flag.id?.href ?? null,
  });
}
