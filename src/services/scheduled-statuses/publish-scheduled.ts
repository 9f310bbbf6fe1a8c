// The "scheduled-status.publish" job: at its time, a scheduled status becomes a status through
// the ordinary posting use case (so delivery, notifications, timelines and streaming happen as
// for any post) and its record goes. Exactly once, whatever the crashes and however many
// runners: the record is read and removed under its lock, and the post carries an
// Idempotency-Key derived from the record, so a run that dies between posting and removing is
// answered by its retry with the status already made instead of a second one.

import { getLogger } from "@logtape/logtape";
import { AppError } from "../../domain/errors.ts";
import type { ScheduledStatus } from "../../domain/scheduled-status.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { releaseMedia } from "../media/attach-media.ts";
import { createStatus } from "../statuses/create-status.ts";
import { withScheduledLock } from "./own-scheduled.ts";

const logger = getLogger(["wren", "scheduled-statuses"]);

/**
 * The Idempotency-Key of the publication. It begins with a newline, which no HTTP header can
 * carry, so no key a client sends can ever name it.
 */
const publicationKey = (id: string) => `\nscheduled-status:${id}`;

/** Whether the author may still post: Mastodon drops the scheduled posts of an unavailable one. */
async function authorAvailable(ctx: ServiceContext, accountId: string): Promise<boolean> {
  const [account, user] = await Promise.all([
    ctx.storage.accounts.get(accountId),
    ctx.storage.users.get(accountId),
  ]);
  return account !== undefined && account.suspended !== true && user?.disabled === false;
}

function post(ctx: ServiceContext, scheduled: ScheduledStatus): Promise<Status> {
  const { params } = scheduled;
  return createStatus(ctx, {
    accountId: scheduled.accountId,
    applicationId: params.applicationId,
    text: params.text,
    spoilerText: params.spoilerText ?? undefined,
    sensitive: params.sensitive ?? undefined,
    visibility: params.visibility ?? undefined,
    language: params.language,
    inReplyToId: params.inReplyToId ?? undefined,
    mediaIds: params.mediaIds ?? undefined,
    poll: params.poll ?? undefined,
    quotedStatusId: params.quotedStatusId ?? undefined,
    quotePolicy: params.quotePolicy ?? undefined,
    idempotencyKey: publicationKey(scheduled.id),
    mediaHolderId: scheduled.id,
  });
}

/**
 * Publishes the scheduled status if it is due; returns the status, or undefined when there was
 * nothing to do (cancelled, published already, moved later: that move queued its own job) or
 * the post can no longer be made.
 */
export async function publishScheduledStatus(
  ctx: ServiceContext,
  id: string,
): Promise<Status | undefined> {
  return withScheduledLock(ctx, id, async () => {
    const scheduled = await ctx.storage.scheduledStatuses.get(id);
    if (!scheduled) return undefined;
    if (Date.parse(scheduled.scheduledAt) > ctx.clock.now().getTime()) return undefined;
    let status: Status | undefined;
    try {
      if (!(await authorAvailable(ctx, scheduled.accountId))) {
        throw new AppError(404, "The author can no longer post");
      }
      status = await post(ctx, scheduled);
    } catch (error) {
      // A refused post (the replied-to status gone, the media taken, the author suspended)
      // would be refused on every retry: it is dropped, as Mastodon drops it, and its media
      // given back. Anything else (storage trouble) is thrown for the queue to retry.
      if (!(error instanceof AppError)) throw error;
      logger.warn("Scheduled status {id} could not be published: {error}", {
        id,
        error: error.message,
      });
      await releaseMedia(ctx, scheduled.params.mediaIds ?? [], id);
    }
    await ctx.storage.scheduledStatuses.delete(id);
    return status;
  });
}
