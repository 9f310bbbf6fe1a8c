// GET /api/v1/scheduled_statuses: the author's scheduled statuses, newest first by id (as
// Mastodon pages them).

import type { ScheduledStatus } from "../../domain/scheduled-status.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";

export interface ScheduledPage {
  scheduled: ScheduledStatus[];
  newestId: string | undefined;
  oldestId: string | undefined;
}

export async function listScheduledStatuses(
  ctx: ServiceContext,
  accountId: string,
  page: IdPage,
): Promise<ScheduledPage> {
  const scheduled = await ctx.storage.scheduledStatuses.listByAccount(accountId, page);
  return {
    scheduled,
    newestId: scheduled[0]?.id,
    oldestId: scheduled.at(-1)?.id,
  };
}
