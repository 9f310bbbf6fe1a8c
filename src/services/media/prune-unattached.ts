// Removes uploads that were never attached to a status: Mastodon keeps an unattached upload for
// a day (the time someone may take to finish a post), then removes it. The scheduled
// "media.cleanup" job and `wren media prune` both come here.

import { getLogger } from "@logtape/logtape";
import type { ServiceContext } from "../context.ts";
import { removeMediaAttachment } from "./remove-media.ts";

const logger = getLogger(["wren", "media"]);

/** How long an unattached upload is kept before the scheduled cleanup removes it. */
export const UNATTACHED_MEDIA_TTL_MS = 24 * 3600_000;

const BATCH = 100;

export interface PruneSummary {
  /** Attachments removed (files and record). */
  removed: number;
  /** Files deleted from the file host. */
  files: number;
  /** Attachments that could not be removed this time (the file host failed); kept for later. */
  failed: number;
}

/** Removes unattached uploads created more than `olderThanMs` ago, oldest first. */
export async function pruneUnattachedMedia(
  ctx: ServiceContext,
  olderThanMs: number = UNATTACHED_MEDIA_TTL_MS,
): Promise<PruneSummary> {
  const cutoff = new Date(ctx.clock.now().getTime() - olderThanMs).toISOString();
  const summary: PruneSummary = { removed: 0, files: 0, failed: 0 };
  const failed = new Set<string>();
  for (;;) {
    // Failed ones stay in the list; ask for enough to see past them.
    const batch = await ctx.storage.media.listUnattachedBefore(cutoff, failed.size + BATCH);
    const todo = batch.filter((media) => !failed.has(media.id));
    if (todo.length === 0) break;
    for (const { id } of todo) {
      try {
        // A post may have attached it since the list was made: then it stays.
        const files = await removeMediaAttachment(ctx, id, (media) => media.statusId === null);
        if (files === null) continue;
        summary.files += files;
        summary.removed += 1;
      } catch (error) {
        failed.add(id);
        logger.warn("Could not remove unattached media {id}: {error}", { id, error });
      }
    }
  }
  summary.failed = failed.size;
  return summary;
}
