// Facts the interaction use cases share: which status an action really applies to (a boost
// stands for its original, as in Mastodon) and whether the actor blocks the author.

import { AppError, notFound } from "../../domain/errors.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";

/** The boosted original of a reblog, or the status itself. A vanished original is a 404. */
export async function originalOf(ctx: ServiceContext, status: Status): Promise<Status> {
  if (status.reblogOfId === null) return status;
  const original = await ctx.storage.statuses.get(status.reblogOfId);
  if (!original || original.deleted) throw notFound();
  return original;
}

/** Does the actor block the author? Mastodon refuses boosts and favourites then. */
export async function blocksAuthor(
  ctx: ServiceContext,
  actorId: string,
  authorId: string,
): Promise<boolean> {
  if (actorId === authorId) return false;
  return (await ctx.storage.blocks.get(actorId, authorId)) !== undefined;
}

/** Loads a status for an undo action that found no edge: it must exist and not be deleted. */
export async function loadLiveStatus(ctx: ServiceContext, statusId: string): Promise<Status> {
  const status = await ctx.storage.statuses.get(statusId);
  if (!status || status.deleted) throw notFound();
  return status;
}

/** Mastodon's answer when a policy refuses an action on a status the actor can see. */
export const notAllowed = () => new AppError(403, "This action is not allowed");
