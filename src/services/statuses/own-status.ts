// Loads a status that the account itself wrote, for the author-only actions (delete, edit,
// source). Someone else's status answers 404, as Mastodon scopes the lookup to the author.

import { notFound } from "../../domain/errors.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";

export async function loadOwnStatus(
  ctx: ServiceContext,
  accountId: string,
  statusId: string,
): Promise<Status> {
  const status = await ctx.storage.statuses.get(statusId);
  if (!status || status.deleted || status.accountId !== accountId) throw notFound();
  return status;
}
