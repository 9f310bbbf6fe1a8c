// Editing a status (PUT /api/v1/statuses/:id). The version being replaced is kept as a
// StatusEdit, so the history lists every version: the stored edits (oldest first) and then the
// current status. Visibility and the reply target cannot change, as in Mastodon.

import { AppError } from "../../domain/errors.ts";
import type { Status, StatusEdit } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { checkPollParams, checkPollWithoutMedia, type PollParams } from "../polls/poll-params.ts";
import { replacePoll } from "../polls/update-poll.ts";
import { checkMediaIds, composeText, normalizeLanguage } from "./compose-text.ts";
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
  /** A new version of the poll (votes reset when its choices change); absent keeps it. */
  poll?: PollParams | undefined;
}

function snapshotOf(ctx: ServiceContext, status: Status): StatusEdit {
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

export async function editStatus(ctx: ServiceContext, input: EditStatusInput): Promise<Status> {
  const status = await loadOwnStatus(ctx, input.accountId, input.statusId);
  if (status.reblogOfId !== null) throw new AppError(403, "This action is not allowed");
  const mediaIds = input.mediaIds ?? status.mediaIds;
  if (input.poll) checkPollWithoutMedia(mediaIds.length, ctx.settings.maxMediaAttachments);
  if (input.mediaIds !== undefined) checkMediaIds(ctx, input.mediaIds);

  const composed = await composeText(ctx, {
    text: input.text ?? status.text,
    spoilerText: input.spoilerText ?? status.spoilerText,
    hasMedia: mediaIds.length > 0,
  });
  const pollParams = input.poll ? checkPollParams(input.poll) : null;
  const sensitive = (input.sensitive ?? status.sensitive) || composed.spoilerText !== "";
  const language =
    input.language === undefined ? status.language : normalizeLanguage(input.language);
  // A poll sent with the edit always changes it: its deadline starts again from now.
  const unchanged =
    pollParams === null &&
    composed.text === status.text &&
    composed.spoilerText === status.spoilerText &&
    sensitive === status.sensitive &&
    language === status.language;
  if (unchanged) return status;

  await ctx.storage.statusEdits.put(snapshotOf(ctx, status));
  const poll = pollParams ? await replacePoll(ctx, status, pollParams) : null;
  const edited: Status = {
    ...status,
    text: composed.text,
    contentHtml: composed.contentHtml,
    spoilerText: composed.spoilerText,
    sensitive,
    language,
    mentionIds: composed.mentionIds,
    tags: composed.tags,
    pollId: poll?.id ?? status.pollId,
    editedAt: ctx.clock.now().toISOString(),
  };
  await ctx.storage.statuses.put(edited);
  await ctx.events.publish({ type: "status.updated", status: edited });
  return edited;
}
