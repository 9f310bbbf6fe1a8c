// Scheduling a status (POST /api/v1/statuses with `scheduled_at`, Mastodon's ScheduledStatus):
// the post is checked now as it would be at once (text, reply, poll, media) so the author learns
// of a mistake while still there, its parameters are stored, the media it names is held for it
// (no other post can take it meanwhile) and a job on the durable queue publishes it at the time.

import type { ScheduledStatus } from "../../domain/scheduled-status.ts";
import type { ServiceContext } from "../context.ts";
import { checkAttachable, withAttachedMedia } from "../media/attach-media.ts";
import { withAttachLock } from "../media/media-lock.ts";
import { checkPollParams, checkPollWithoutMedia } from "../polls/poll-params.ts";
import { prepareQuote } from "../quotes/prepare-quote.ts";
import { checkText, normalizeLanguage } from "../statuses/compose-text.ts";
import { type CreateStatusInput, loadParent } from "../statuses/create-status.ts";
import { IDEMPOTENCY_WINDOW_MS, idempotencyKeyHash } from "../statuses/idempotency.ts";
import { loadPoster } from "../statuses/load-poster.ts";
import { PUBLISH_SCHEDULED_JOB } from "./publish-job.ts";
import { checkScheduleTime, withScheduleLock } from "./schedule-time.ts";

/**
 * A retried request with the same Idempotency-Key within the hour answers the scheduled status
 * made the first time (while it waits), as Mastodon does. Scheduling keys are kept apart from
 * posting keys (a newline, which no header carries, marks them), so a key used for both never
 * mixes a status with a scheduled one.
 */
async function withSchedulingKey(
  ctx: ServiceContext,
  accountId: string,
  key: string | undefined,
  schedule: () => Promise<ScheduledStatus>,
): Promise<ScheduledStatus> {
  if (key === undefined || key === "") return schedule();
  const keyHash = idempotencyKeyHash(accountId, `\nschedule:${key}`);
  return ctx.storage.coordination.withLock(`idempotency:${keyHash}`, async () => {
    const now = ctx.clock.now();
    const record = await ctx.storage.idempotency.get(keyHash);
    if (record && Date.parse(record.createdAt) >= now.getTime() - IDEMPOTENCY_WINDOW_MS) {
      const earlier = await ctx.storage.scheduledStatuses.get(record.statusId);
      if (earlier) return earlier;
    }
    const scheduled = await schedule();
    await ctx.storage.idempotency.put({
      keyHash,
      statusId: scheduled.id,
      createdAt: now.toISOString(),
    });
    return scheduled;
  });
}

export function scheduleStatus(
  ctx: ServiceContext,
  input: CreateStatusInput,
  at: Date,
): Promise<ScheduledStatus> {
  // The key first: a retry must find the first answer before its media looks taken (by it).
  return withSchedulingKey(ctx, input.accountId, input.idempotencyKey, () =>
    schedule(ctx, input, at),
  );
}

async function schedule(
  ctx: ServiceContext,
  input: CreateStatusInput,
  at: Date,
): Promise<ScheduledStatus> {
  const { accountId } = input;
  // Only a local user may schedule (404 otherwise), as only one may post.
  const { user } = await loadPoster(ctx, accountId);
  const mediaIds = input.mediaIds ?? [];
  if (input.poll) checkPollWithoutMedia(mediaIds.length, ctx.settings.maxMediaAttachments);
  const poll = input.poll ? checkPollParams(input.poll) : null;
  checkText(ctx, {
    text: input.text ?? "",
    spoilerText: input.spoilerText ?? "",
    hasMedia: mediaIds.length > 0,
  });
  // Replying to a boost replies to the boosted status, as when posting at once.
  const parent = input.inReplyToId ? await loadParent(ctx, accountId, input.inReplyToId) : null;
  // The quoted status must exist for the author and allow the quote now (Mastodon authorizes
  // `quote?` before scheduling); the rules that need the composed post apply at publication.
  const quoted = input.quotedStatusId
    ? (await prepareQuote(ctx, accountId, input.quotedStatusId)).quoted
    : null;

  const store = async () => {
    const media = await checkAttachable(ctx, { accountId, mediaIds });
    return withScheduleLock(ctx, accountId, async () => {
      await checkScheduleTime(ctx, accountId, at, null);
      const id = ctx.ids.next();
      return withAttachedMedia(ctx, media, id, async () => {
        // The job first: a crash before the record leaves a job that finds nothing to publish,
        // never a record that no job would publish.
        const jobId = await ctx.jobs.enqueue(
          PUBLISH_SCHEDULED_JOB,
          { scheduledStatusId: id },
          { runAt: at },
        );
        const scheduled: ScheduledStatus = {
          id,
          accountId,
          scheduledAt: at.toISOString(),
          params: {
            text: input.text ?? "",
            spoilerText: input.spoilerText ?? null,
            sensitive: input.sensitive ?? null,
            visibility: input.visibility ?? null,
            language: normalizeLanguage(input.language),
            inReplyToId: parent?.id ?? null,
            mediaIds: media.length > 0 ? media.map((m) => m.id) : null,
            poll,
            applicationId: input.applicationId,
            idempotency: input.idempotencyKey ?? null,
            quotedStatusId: quoted?.id ?? null,
            quotePolicy: input.quotePolicy ?? user.defaultQuotePolicy ?? "public",
          },
          jobId,
          createdAt: ctx.clock.now().toISOString(),
        };
        try {
          await ctx.storage.scheduledStatuses.put(scheduled);
        } catch (error) {
          await ctx.jobs.cancel(jobId).catch(() => false);
          throw error;
        }
        return scheduled;
      });
    });
  };
  // Like posting: media is taken one request at a time per account.
  return mediaIds.length > 0 ? withAttachLock(ctx, accountId, store) : store();
}
