/**
 * Status and the small entities only statuses carry, from Mastodon's documentation
 * (entities/Status.md, Quote.md, ShallowQuote.md, QuoteApproval.md, StatusSource.md,
 * StatusEdit.md).
 */
import {
  anyObject,
  arrayOf,
  boolean,
  dateTime,
  entity,
  integer,
  language,
  nullable,
  object,
  oneOf,
  type Schema,
  string,
  uri,
} from "../json-schema.ts";

const visibility = oneOf("public", "unlisted", "private", "direct");

/** An account mentioned in a status (`mentions[]`). */
export const StatusMention = object({ id: string, username: string, url: uri, acct: string });

/** A hashtag used in a status (`tags[]`). */
export const StatusTag = object({ name: string, url: uri });

const quoteState = oneOf(
  "pending",
  "accepted",
  "rejected",
  "revoked",
  "deleted",
  "unauthorized",
  "blocked_account",
  "blocked_domain",
  "muted_account",
);

export const Quote = object({ state: quoteState }, { quoted_status: nullable(entity("Status")) });
export const ShallowQuote = object({ state: quoteState }, { quoted_status_id: nullable(string) });

const approvalPolicy = oneOf("public", "followers", "following", "unsupported_policy");
export const QuoteApproval = object({
  automatic: arrayOf(approvalPolicy),
  manual: arrayOf(approvalPolicy),
  current_user: oneOf("automatic", "manual", "denied", "unknown"),
});

export const Status: Schema = object(
  {
    id: string,
    uri: string,
    created_at: dateTime,
    account: entity("Account"),
    content: string,
    visibility,
    sensitive: boolean,
    spoiler_text: string,
    media_attachments: arrayOf(entity("MediaAttachment")),
    mentions: arrayOf(entity("StatusMention")),
    tags: arrayOf(entity("StatusTag")),
    emojis: arrayOf(entity("CustomEmoji")),
    reblogs_count: integer,
    favourites_count: integer,
    replies_count: integer,
  },
  {
    application: nullable(object({ name: string }, { website: nullable(uri) })),
    url: nullable(uri),
    in_reply_to_id: nullable(string),
    in_reply_to_account_id: nullable(string),
    reblog: nullable(entity("Status")),
    poll: nullable(entity("Poll")),
    card: nullable(entity("PreviewCard")),
    language: nullable(language),
    text: nullable(string),
    edited_at: nullable(dateTime),
    quotes_count: nullable(integer),
    quote: nullable({ anyOf: [entity("Quote"), entity("ShallowQuote")] }),
    quote_approval: nullable(entity("QuoteApproval")),
    favourited: nullable(boolean),
    reblogged: nullable(boolean),
    muted: nullable(boolean),
    bookmarked: nullable(boolean),
    pinned: nullable(boolean),
    filtered: nullable(arrayOf(entity("FilterResult"))),
    tagged_collections: nullable(arrayOf(anyObject)),
  },
  "A post",
);

/** GET /api/v1/statuses/:id/source: the plain text behind a status, for editing. */
export const StatusSource = object({ id: string, text: string, spoiler_text: string });

/** An entry of GET /api/v1/statuses/:id/history. */
export const StatusEdit = object(
  {
    content: string,
    spoiler_text: string,
    sensitive: boolean,
    created_at: dateTime,
    account: entity("Account"),
    media_attachments: arrayOf(entity("MediaAttachment")),
    emojis: arrayOf(entity("CustomEmoji")),
  },
  {
    poll: nullable(object({ options: arrayOf(object({ title: string })) })),
    quote: nullable({ anyOf: [entity("Quote"), entity("ShallowQuote")] }),
  },
  "A revision of a status",
);
