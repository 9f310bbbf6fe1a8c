/** ScheduledStatus, from Mastodon's documentation (entities/ScheduledStatus.md). */
import {
  arrayOf,
  boolean,
  dateTime,
  entity,
  integer,
  nullable,
  object,
  oneOf,
  type Schema,
  string,
} from "../json-schema.ts";

/**
 * Mastodon documents these ids as integers; Wren's pass 2^53, which a JSON number cannot carry
 * exactly to a JavaScript client, so it writes them as strings like every other id.
 */
const legacyId: Schema = { anyOf: [string, integer, { type: "null" }] };

const ScheduledPoll = object({
  options: arrayOf(string),
  expires_in: integer,
  multiple: boolean,
  hide_totals: boolean,
});

const ScheduledParams = object(
  { text: string },
  {
    poll: nullable(ScheduledPoll),
    media_ids: nullable(arrayOf(string)),
    sensitive: nullable(boolean),
    spoiler_text: nullable(string),
    visibility: nullable(oneOf("public", "unlisted", "private", "direct")),
    language: nullable(string),
    in_reply_to_id: legacyId,
    application_id: legacyId,
    idempotency: nullable(string),
    scheduled_at: { type: "null" },
    with_rate_limit: boolean,
    // Mastodon 4.5 (ScheduledStatusSerializer#params) adds these two to every record.
    quoted_status_id: nullable(string),
    quote_approval_policy: oneOf("public", "followers", "nobody"),
  },
);

export const ScheduledStatus = object(
  {
    id: string,
    scheduled_at: dateTime,
    params: ScheduledParams,
    media_attachments: arrayOf(entity("MediaAttachment")),
  },
  {},
  "A status that will be published at a future scheduled date",
);
