// The versions of a status, oldest first, ending with the current one (Mastodon's
// GET /api/v1/statuses/:id/history). A never-edited status has a single version.

import type { StatusEdit } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { loadVisibleStatus } from "./visibility.ts";

export async function statusHistory(
  ctx: ServiceContext,
  viewerId: string | null,
  statusId: string,
): Promise<StatusEdit[]> {
  const status = await loadVisibleStatus(ctx, viewerId, statusId);
  const earlier = await ctx.storage.statusEdits.listByStatus(status.id);
  const current: StatusEdit = {
    id: status.id,
    statusId: status.id,
    accountId: status.accountId,
    text: status.text,
    contentHtml: status.contentHtml,
    spoilerText: status.spoilerText,
    sensitive: status.sensitive,
    mediaIds: status.mediaIds,
    createdAt: status.editedAt ?? status.createdAt,
  };
  return [...earlier, current];
}
