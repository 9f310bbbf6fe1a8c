// The attachment behind GET/PUT /api/v1/media/:id: the viewer's own and not yet attached (once
// posted, an attachment changes only through the status, as in Mastodon); anything else is the
// same 404. Media held by one of the viewer's scheduled statuses counts as not yet attached:
// Mastodon attaches it only when the status is published. A failed one answers 422 with the
// reason processing gave.

import { notFound, unprocessable } from "../../domain/errors.ts";
import type { MediaAttachment } from "../../domain/media.ts";
import { PROCESSING_FAILED } from "../../media/processing-error.ts";
import type { ServiceContext } from "../context.ts";

/** `heldBy`: the viewer's scheduled status that holds the attachment, if one does. */
export function checkOwnUnattached(
  media: MediaAttachment | undefined,
  accountId: string,
  heldBy: string | null = null,
): MediaAttachment {
  if (!media || media.accountId !== accountId) throw notFound();
  if (media.statusId !== null && media.statusId !== heldBy) throw notFound();
  if (media.state === "failed") throw unprocessable(media.failureReason ?? PROCESSING_FAILED);
  return media;
}

/** The id of the account's scheduled status holding the attachment, or null. */
export async function scheduledHolderOf(
  ctx: ServiceContext,
  media: MediaAttachment | undefined,
  accountId: string,
): Promise<string | null> {
  if (!media?.statusId) return null;
  const holder = await ctx.storage.scheduledStatuses.get(media.statusId);
  return holder?.accountId === accountId ? holder.id : null;
}

export async function getOwnMedia(
  ctx: ServiceContext,
  accountId: string,
  mediaId: string,
): Promise<MediaAttachment> {
  const media = await ctx.storage.media.get(mediaId);
  return checkOwnUnattached(media, accountId, await scheduledHolderOf(ctx, media, accountId));
}
