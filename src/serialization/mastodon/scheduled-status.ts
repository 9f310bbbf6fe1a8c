// Mastodon's ScheduledStatus entity. Pure. `params` mirror what was given when scheduling, under
// Mastodon's names; ids (in_reply_to_id, application_id) stay strings: Wren's ids pass 2^53,
// which a JSON number cannot carry exactly to a JavaScript client.

import type { MediaAttachment } from "../../domain/media.ts";
import type { ScheduledStatus } from "../../domain/scheduled-status.ts";
import type { UrlContext } from "./account.ts";
import { type MediaAttachmentJson, serializeMediaAttachment } from "./media-attachment.ts";

export interface ScheduledStatusJson {
  id: string;
  scheduled_at: string;
  params: {
    text: string;
    poll: { options: string[]; expires_in: number; multiple: boolean; hide_totals: boolean } | null;
    media_ids: string[] | null;
    sensitive: boolean | null;
    spoiler_text: string | null;
    visibility: string | null;
    language: string | null;
    in_reply_to_id: string | null;
    application_id: string | null;
    idempotency: string | null;
    /** Always null: a status is scheduled once. */
    scheduled_at: null;
    with_rate_limit: boolean;
    quoted_status_id: string | null;
    /** Mastodon 4.5 names the policy; "nobody" for a record that kept none. */
    quote_approval_policy: string;
  };
  media_attachments: MediaAttachmentJson[];
}

export function serializeScheduledStatus(
  scheduled: ScheduledStatus,
  media: ReadonlyMap<string, MediaAttachment>,
  urls: UrlContext,
): ScheduledStatusJson {
  const { params } = scheduled;
  const mediaIds = params.mediaIds ?? [];
  return {
    id: scheduled.id,
    scheduled_at: scheduled.scheduledAt,
    params: {
      text: params.text,
      poll: params.poll && {
        options: params.poll.options,
        expires_in: params.poll.expiresIn,
        multiple: params.poll.multiple,
        hide_totals: params.poll.hideTotals,
      },
      media_ids: params.mediaIds,
      sensitive: params.sensitive,
      spoiler_text: params.spoilerText,
      visibility: params.visibility,
      language: params.language,
      in_reply_to_id: params.inReplyToId,
      application_id: params.applicationId,
      idempotency: params.idempotency,
      scheduled_at: null,
      with_rate_limit: false,
      quoted_status_id: params.quotedStatusId ?? null,
      quote_approval_policy: params.quotePolicy ?? "nobody",
    },
    media_attachments: mediaIds.flatMap((id) => {
      const attachment = media.get(id);
      return attachment ? [serializeMediaAttachment(attachment, urls)] : [];
    }),
  };
}
