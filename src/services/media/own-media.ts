// The attachment behind GET/PUT /api/v1/media/:id: the viewer's own and not yet attached (once
// posted, an attachment changes only through the status, as in Mastodon); anything else is the
// same 404. A failed one answers 422 with the reason processing gave.

import { notFound, unprocessable } from "../../domain/errors.ts";
import type { MediaAttachment } from "../../domain/media.ts";
import { PROCESSING_FAILED } from "../../media/processing-error.ts";
import type { ServiceContext } from "../context.ts";

export function checkOwnUnattached(
  media: MediaAttachment | undefined,
  accountId: string,
): MediaAttachment {
  if (!media || media.accountId !== accountId || media.statusId !== null) throw notFound();
  if (media.state === "failed") throw unprocessable(media.failureReason ?? PROCESSING_FAILED);
  return media;
}

export async function getOwnMedia(
  ctx: ServiceContext,
  accountId: string,
  mediaId: string,
): Promise<MediaAttachment> {
  return checkOwnUnattached(await ctx.storage.media.get(mediaId), accountId);
}
