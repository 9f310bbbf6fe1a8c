// The typed source of one's own status, for editing (GET /api/v1/statuses/:id/source).

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { loadOwnStatus } from "./own-status.ts";

export async function statusSource(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
): Promise<Pick<Status, "id" | "text" | "spoilerText">> {
  const { id, text, spoilerText } = await loadOwnStatus(ctx, accountId, statusId);
  return { id, text, spoilerText };
}
