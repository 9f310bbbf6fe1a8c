// Posting a status (Mastodon's PostStatusService): text rendered with mentions and hashtags,
// the author's defaults for visibility, sensitivity and language, replies joined to their
// thread, the posting app recorded, and retries with the same Idempotency-Key answered with the
// status made the first time.

import type { Visibility } from "../../domain/account.ts";
import { AppError } from "../../domain/errors.ts";
import { type QuotePolicy, storedQuotePolicy, withQuoteFallback } from "../../domain/quote.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { checkAttachable, withAttachedMedia } from "../media/attach-media.ts";
import { withAttachLock } from "../media/media-lock.ts";
import { createPoll } from "../polls/create-poll.ts";
import { checkPollParams, checkPollWithoutMedia, type PollParams } from "../polls/poll-params.ts";
import { checkQuotingPost, prepareQuote, stampFor } from "../quotes/prepare-quote.ts";
import { composeText, normalizeLanguage } from "./compose-text.ts";
import { type PostSlot, withIdempotency } from "./idempotency.ts";
import { loadPoster } from "./load-poster.ts";
import { visibleStatuses } from "./visibility.ts";

export interface CreateStatusInput {
  accountId: string;
  /** The OAuth app of the token that posts. */
  applicationId: string | null;
  text?: string | undefined;
  spoilerText?: string | undefined;
  sensitive?: boolean | undefined;
  visibility?: Visibility | undefined;
  language?: string | null | undefined;
  inReplyToId?: string | undefined;
  mediaIds?: readonly string[] | undefined;
  /** The poll to attach (`poll[…]` parameters). */
  poll?: PollParams | undefined;
  /** The status to quote (`quoted_status_id`). */
  quotedStatusId?: string | undefined;
  /** Who may quote the new status (`quote_approval_policy`); else the poster's default. */
  quotePolicy?: QuotePolicy | undefined;
  idempotencyKey?: string | undefined;
  /**
   * The scheduled status being published: media it holds (attachments whose statusId is this
   * id) is the poster's to attach.
   */
  mediaHolderId?: string | undefined;
}

const REPLY_NOT_FOUND = "The post you are trying to reply to does not appear to exist.";

/** The status replied to, which the poster must be able to see (else the same 404 as missing). */
export async function loadParent(
  ctx: ServiceContext,
  accountId: string,
  inReplyToId: string,
): Promise<Status> {
  let parent = await ctx.storage.statuses.get(inReplyToId);
  // Replying to a boost replies to the boosted status.
  if (parent?.reblogOfId) parent = await ctx.storage.statuses.get(parent.reblogOfId);
  const [visible] = parent ? await visibleStatuses(ctx, accountId, [parent]) : [];
  if (!visible) throw new AppError(404, REPLY_NOT_FOUND);
  return visible;
}

async function post(
  ctx: ServiceContext,
  input: CreateStatusInput,
  slot: PostSlot,
): Promise<Status> {
  const { accountId } = input;
  const { account, user } = await loadPoster(ctx, accountId);

  const mediaIds = input.mediaIds ?? [];
  if (input.poll) checkPollWithoutMedia(mediaIds.length, ctx.settings.maxMediaAttachments);
  // Media already on the slot's id is the poster's own: a retry after a crash takes it back.
  const media = await checkAttachable(ctx, {
    accountId,
    mediaIds,
    statusId: slot.id,
    heldBy: input.mediaHolderId,
  });

  const parent = input.inReplyToId ? await loadParent(ctx, accountId, input.inReplyToId) : null;
  const quoting = input.quotedStatusId
    ? await prepareQuote(ctx, accountId, input.quotedStatusId)
    : null;
  const composed = await composeText(ctx, {
    text: input.text ?? "",
    spoilerText: input.spoilerText ?? "",
    hasMedia: mediaIds.length > 0,
  });
  const pollParams = input.poll ? checkPollParams(input.poll) : null;
  const visibility = input.visibility ?? user.defaultVisibility;
  if (quoting) {
    checkQuotingPost(quoting, {
      visibility,
      mentionIds: composed.mentionIds,
      hasMedia: mediaIds.length > 0,
      hasPoll: pollParams !== null,
    });
  }

  const { id } = slot;
  // The Idempotency-Key goes first (idempotency.ts): a crash after the status then never lets a
  // retry post it twice.
  await slot.recordKey();
  // The poll is stored before the status, so the status never points at a poll that is not there.
  const poll = pollParams
    ? await createPoll(ctx, { statusId: id, accountId, poll: pollParams })
    : null;
  const status: Status = {
    id,
    accountId,
    uri: `${account.uri}/statuses/${id}`,
    url: `${account.url}/${id}`,
    text: composed.text,
    contentHtml: quoting
      ? withQuoteFallback(composed.contentHtml, quoting.quoted)
      : composed.contentHtml,
    spoilerText: composed.spoilerText,
    visibility,
    // A content warning always hides the post behind it, as in Mastodon.
    sensitive: (input.sensitive ?? user.defaultSensitive) || composed.spoilerText !== "",
    language: normalizeLanguage(input.language) ?? user.defaultLanguage,
    inReplyToId: parent?.id ?? null,
    inReplyToAccountId: parent?.accountId ?? null,
    conversationId: parent?.conversationId ?? id,
    reblogOfId: null,
    mentionIds: composed.mentionIds,
    tags: composed.tags,
    mediaIds: media.map((m) => m.id),
    pollId: poll?.id ?? null,
    applicationId: input.applicationId,
    local: true,
    createdAt: ctx.clock.now().toISOString(),
    editedAt: null,
    deleted: false,
    deletedAt: null,
    quote: quoting ? await stampFor(ctx, quoting, id) : null,
    quotePolicy: storedQuotePolicy(visibility, input.quotePolicy ?? user.defaultQuotePolicy),
  };
  // The event is recorded before the status (ADR 0013): a crash once the status is stored still
  // sends the Create; one before finds no status and does nothing.
  await publishAround(ctx.events, { type: "status.created", status }, () =>
    withAttachedMedia(ctx, media, id, () => ctx.storage.statuses.put(status)),
  );
  return status;
}

/** A status a post answers with, and whether this very call stored it. */
export interface PostedStatus {
  status: Status;
  /**
   * True when this call stored the status (not a retry answered with the status an earlier
   * call with the same Idempotency-Key made): it has then no replies, boosts, favourites,
   * quotes, card or flag of anyone's yet, which lets its answer be rendered without reading
   * them (views/status-view.ts).
   */
  freshlyPosted: boolean;
}

/** createStatus, telling whether the status is the one this call stored. */
export async function postStatus(
  ctx: ServiceContext,
  input: CreateStatusInput,
): Promise<PostedStatus> {
  let freshlyPosted = false;
  // Posts with media run one at a time per account, so two cannot take the same upload.
  const run = async (slot: PostSlot) => {
    const status =
      input.mediaIds && input.mediaIds.length > 0
        ? await withAttachLock(ctx, input.accountId, () => post(ctx, input, slot))
        : await post(ctx, input, slot);
    freshlyPosted = true;
    return status;
  };
  const status = await withIdempotency(ctx, input.accountId, input.idempotencyKey, run);
  return { status, freshlyPosted };
}

export async function createStatus(ctx: ServiceContext, input: CreateStatusInput): Promise<Status> {
  return (await postStatus(ctx, input)).status;
}
