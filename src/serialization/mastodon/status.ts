// StatusView → Mastodon's Status entity. Pure. The internal `deleted` flag is never copied: the
// field list below is the whole entity, built field by field.

import { isSensitized } from "../../domain/account.ts";
import type { StatusView } from "../../views/status-view.ts";
import { type AccountJson, serializeAccount, type UrlContext } from "./account.ts";
import { type CustomEmojiJson, serializeCustomEmojis } from "./custom-emoji.ts";
import { type FilterResultJson, serializeFilterResult } from "./filter.ts";
import { type MediaAttachmentJson, serializeMediaAttachment } from "./media-attachment.ts";
import { type MentionJson, serializeMention } from "./mention.ts";
import { type PollJson, serializePoll } from "./poll.ts";
import { type PreviewCardJson, serializePreviewCard } from "./preview-card.ts";
import {
  type QuoteApprovalJson,
  type QuoteJson,
  serializeQuote,
  serializeQuoteApproval,
} from "./quote.ts";
import { serializeTag, type TagJson } from "./tag.ts";

export interface StatusJson {
  id: string;
  uri: string;
  url: string | null;
  created_at: string;
  account: AccountJson;
  content: string;
  visibility: string;
  sensitive: boolean;
  spoiler_text: string;
  media_attachments: MediaAttachmentJson[];
  application?: { name: string; website: string | null } | null;
  mentions: MentionJson[];
  tags: TagJson[];
  emojis: CustomEmojiJson[];
  reblogs_count: number;
  favourites_count: number;
  replies_count: number;
  in_reply_to_id: string | null;
  in_reply_to_account_id: string | null;
  reblog: StatusJson | null;
  poll: PollJson | null;
  card: PreviewCardJson | null;
  language: string | null;
  /** The source text: only in the answer to a deletion (for "delete and redraft"). */
  text?: string;
  edited_at: string | null;
  favourited?: boolean;
  reblogged?: boolean;
  muted?: boolean;
  bookmarked?: boolean;
  /** Only on the viewer's own pinnable statuses. */
  pinned?: boolean;
  /** The viewer's filters that match (FilterResult); only for a signed-in viewer. */
  filtered?: FilterResultJson[];
  /** The status it quotes, as the viewer may see it (Quote, or ShallowQuote when nested). */
  quote: QuoteJson<StatusJson> | null;
  quote_approval: QuoteApprovalJson;
  quotes_count: number;
}

export interface StatusSerializeOptions {
  /** Include `text` (the typed source), as Mastodon does when answering a deletion. */
  withSource?: boolean;
}

/** The fields that depend on the viewer, on counters or on other records' state. */
type LiveField =
  | "account"
  | "reblog"
  | "poll"
  | "reblogs_count"
  | "favourites_count"
  | "replies_count"
  | "favourited"
  | "reblogged"
  | "muted"
  | "bookmarked"
  | "pinned"
  | "filtered"
  | "quote"
  | "quote_approval"
  | "quotes_count"
  | "text";

/**
 * The fields that change only with the status record itself, its attachments, mentioned
 * accounts, custom emojis, application and card: what a cache of rendered statuses may keep
 * (serialization/mastodon/status-text.ts).
 */
export type StatusContentJson = Omit<StatusJson, LiveField>;

export function serializeStatusContent(view: StatusView, urls: UrlContext): StatusContentJson {
  const { status } = view;
  return {
    id: status.id,
    uri: status.uri,
    url: status.url === "" ? null : status.url,
    created_at: status.createdAt,
    content: status.contentHtml,
    visibility: status.visibility,
    // A moderator marked the author's media sensitive (Mastodon's sensitized accounts).
    sensitive: status.sensitive || isSensitized(view.account.account),
    spoiler_text: status.spoilerText,
    media_attachments: view.media.map((m) => serializeMediaAttachment(m, urls)),
    // Mastodon shows the posting app by default (the author can opt out; Wren has no such
    // setting yet). Remote statuses never carry one.
    application: view.application,
    mentions: view.mentions.map((a) => serializeMention(a)),
    tags: status.tags.map((name) => serializeTag(name, urls.publicUrl)),
    emojis: serializeCustomEmojis(view.emojis, urls),
    in_reply_to_id: status.inReplyToId,
    in_reply_to_account_id: status.inReplyToAccountId,
    card: view.card ? serializePreviewCard(view.card, urls) : null,
    language: status.language,
    edited_at: status.editedAt,
  };
}

/**
 * The counters and the viewer's flags and filter results (absent for anonymous viewers). Per
 * viewer: never part of what status-text.ts keeps between renderings.
 */
export function serializeStatusCounters(
  view: StatusView,
): Pick<
  StatusJson,
  "reblogs_count" | "favourites_count" | "replies_count" | "quotes_count" | "quote_approval"
> &
  Partial<
    Pick<StatusJson, "favourited" | "reblogged" | "muted" | "bookmarked" | "pinned" | "filtered">
  > {
  const counters = {
    reblogs_count: view.reblogsCount,
    favourites_count: view.favouritesCount,
    replies_count: view.repliesCount,
    quotes_count: view.quotesCount,
    quote_approval: serializeQuoteApproval(view.quoteApproval),
  };
  if (!view.viewer) return counters;
  const { favourited, reblogged, muted, bookmarked, pinned } = view.viewer;
  return {
    ...counters,
    favourited,
    reblogged,
    muted,
    bookmarked,
    ...(pinned === undefined ? {} : { pinned }),
    filtered: view.filtered.map(serializeFilterResult),
  };
}

export function serializeStatus(
  view: StatusView,
  urls: UrlContext,
  options: StatusSerializeOptions = {},
): StatusJson {
  return {
    ...serializeStatusContent(view, urls),
    account: serializeAccount(view.account, urls),
    reblog: view.reblog ? serializeStatus(view.reblog, urls) : null,
    poll: view.poll ? serializePoll(view.poll, urls) : null,
    quote: serializeQuote(view.quote, (quoted) => serializeStatus(quoted, urls)),
    ...serializeStatusCounters(view),
    ...(options.withSource ? { text: view.status.text } : {}),
  };
}
