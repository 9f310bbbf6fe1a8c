// Editing a status (PUT /api/v1/statuses/:id). The version being replaced is kept as a
// StatusEdit, so the history lists every version: the stored edits (oldest first) and then the
// current status. Visibility and the reply target cannot change, as in Mastodon. media_ids[]
// replaces the attachments (absent keeps them); media_attributes[] changes the description, focal
// point or preview of the status's attachments, and such a change alone is an edit too.

import { AppError, notFound } from "../../domain/errors.ts";
import { type QuotePolicy, storedQuotePolicy, withQuoteFallback } from "../../domain/quote.ts";
import type { Status, StatusEdit } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";
import { checkAttachable, withAttachedMedia } from "../media/attach-media.ts";
import { withAttachLock } from "../media/media-lock.ts";
import {
  applyMediaChanges,
  type MediaChanges,
  type PreparedMediaChanges,
  prepareMediaChanges,
} from "../media/update-media.ts";
import { checkPollParams, checkPollWithoutMedia, type PollParams } from "../polls/poll-params.ts";
import { replacePoll } from "../polls/update-poll.ts";
import { setQuotePolicy } from "../quotes/set-quote-policy.ts";
import { composeText, normalizeLanguage } from "./compose-text.ts";
import { loadOwnStatus } from "./own-status.ts";

export interface EditStatusInput {
  accountId: string;
  statusId: string;
  /** Absent fields keep their current value. */
  text?: string | undefined;
  spoilerText?: string | undefined;
  sensitive?: boolean | undefined;
  language?: string | null | undefined;
  mediaIds?: readonly string[] | undefined;
  /** Changes to attachments of the edited status (others are ignored, as in Mastodon). */
  mediaAttributes?: readonly (MediaChanges & { id: string })[] | undefined;
  /** A new version of the poll (votes reset when its choices change); absent keeps it. */
  poll?: PollParams | undefined;
  /** Who may quote it from now on (`quote_approval_policy`); absent keeps it. */
  quotePolicy?: QuotePolicy | undefined;
}

/** A quote keeps its fallback link through edits (domain/quote.ts). */
async function withQuoteLink(ctx: ServiceContext, status: Status, html: string): Promise<string> {
  const quote = status.quote;
  if (!quote) return html;
  const quoted = quote.quotedStatusId ? await ctx.storage.statuses.get(quote.quotedStatusId) : null;
  return withQuoteFallback(html, quoted ?? { url: quote.quotedUri, uri: quote.quotedUri });
}

export function snapshotOf(ctx: ServiceContext, status: Status): StatusEdit {
  return {
    id: ctx.ids.next(),
    statusId: status.id,
    accountId: status.accountId,
    text: status.text,
    contentHtml: status.contentHtml,
    spoilerText: status.spoilerText,
    sensitive: status.sensitive,
    mediaIds: [...status.mediaIds],
    // When this version came to be: the post itself, or its latest edit.
    createdAt: status.editedAt ?? status.createdAt,
  };
}

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, i) => id === b[i]);

/** Checks (and processes previews of) the attribute changes for the attachments kept. */
async function prepareAttributes(
  ctx: ServiceContext,
  mediaIds: readonly string[],
  attributes: EditStatusInput["mediaAttributes"],
): Promise<{ id: string; changes: PreparedMediaChanges }[]> {
  const kept = new Set(mediaIds);
  const relevant = (attributes ?? []).filter((a) => kept.has(a.id));
  return Promise.all(
    relevant.map(async (a) => ({ id: a.id, changes: await prepareMediaChanges(ctx, a) })),
  );
}

/** Applies attribute changes; true when one of them is visible to readers. */
async function applyAttributes(
  ctx: ServiceContext,
  status: Status,
  prepared: { id: string; changes: PreparedMediaChanges }[],
): Promise<boolean> {
  let significant = false;
  for (const { id, changes } of prepared) {
    const applied = await applyMediaChanges(ctx, id, changes, (media) => {
      const usable =
        media?.accountId === status.accountId &&
        (media.statusId === null || media.statusId === status.id);
      if (!media || !usable) throw notFound();
      return media;
    });
    significant ||= applied.significant;
  }
  return significant;
}

export async function editStatus(ctx: ServiceContext, input: EditStatusInput): Promise<Status> {
  // Edits that attach media run one at a time per account, like posts with media.
  if (input.mediaIds && input.mediaIds.length > 0) {
    return withAttachLock(ctx, input.accountId, () => edit(ctx, input));
  }
  return edit(ctx, input);
}

async function edit(ctx: ServiceContext, input: EditStatusInput): Promise<Status> {
  const status = await loadOwnStatus(ctx, input.accountId, input.statusId);
  if (status.reblogOfId !== null) throw new AppError(403, "This action is not allowed");
  const mediaIds = input.mediaIds ?? status.mediaIds;
  if (input.poll) checkPollWithoutMedia(mediaIds.length, ctx.settings.maxMediaAttachments);
  const media =
    input.mediaIds === undefined
      ? null
      : await checkAttachable(ctx, {
          accountId: input.accountId,
          mediaIds: input.mediaIds,
          statusId: status.id,
        });
  const nextMediaIds = media ? media.map((m) => m.id) : status.mediaIds;

  const composed = await composeText(ctx, {
    text: input.text ?? status.text,
    spoilerText: input.spoilerText ?? status.spoilerText,
    hasMedia: nextMediaIds.length > 0,
  });
  const pollParams = input.poll ? checkPollParams(input.poll) : null;
  const attributes = await prepareAttributes(ctx, nextMediaIds, input.mediaAttributes);
  // Everything is checked; attribute changes are the first write.
  const mediaChanged =
    (await applyAttributes(ctx, status, attributes)) || !sameIds(nextMediaIds, status.mediaIds);
  const sensitive = (input.sensitive ?? status.sensitive) || composed.spoilerText !== "";
  const language =
    input.language === undefined ? status.language : normalizeLanguage(input.language);
  // A poll sent with the edit always changes it: its deadline starts again from now.
  const unchanged =
    pollParams === null &&
    composed.text === status.text &&
    composed.spoilerText === status.spoilerText &&
    sensitive === status.sensitive &&
    language === status.language &&
    !mediaChanged;
  // Only the quote policy: not an edit (set-quote-policy.ts).
  if (unchanged) return setQuotePolicy(ctx, input.accountId, status.id, input.quotePolicy);

  await ctx.storage.statusEdits.put(snapshotOf(ctx, status));
  const poll = pollParams ? await replacePoll(ctx, status, pollParams) : null;
  const edited: Status = {
    ...status,
    text: composed.text,
    contentHtml: await withQuoteLink(ctx, status, composed.contentHtml),
    spoilerText: composed.spoilerText,
    sensitive,
    language,
    mentionIds: composed.mentionIds,
    tags: composed.tags,
    mediaIds: nextMediaIds,
    pollId: poll?.id ?? status.pollId,
    editedAt: ctx.clock.now().toISOString(),
    ...(input.quotePolicy
      ? { quotePolicy: storedQuotePolicy(status.visibility, input.quotePolicy) }
      : {}),
  };
  // Recorded before the write (ADR 0013): a crash after it still sends the Update.
  await publishAround(ctx.events, { type: "status.updated", status: edited }, () =>
    withAttachedMedia(ctx, media ?? [], status.id, () => ctx.storage.statuses.put(edited)),
  );
  return edited;
}
