// What the ActivityPub conversions (serialization/activitypub/from-*.ts) hand to the services
// that store remote actors and objects: plain data, already sanitised, no protocol types.

import type { AccountField, ImageRef, RemoteActorInfo, Visibility } from "../../domain/account.ts";
import type { MediaMeta, MediaType } from "../../domain/media.ts";
import type { QuotePolicy } from "../../domain/quote.ts";

/** A custom emoji used by remote content (an `Emoji` tag). */
export interface RemoteEmojiDraft {
  /** Without colons. */
  shortcode: string;
  url: string;
  /** When the remote server last changed it (ISO), if it says. */
  updatedAt: string | null;
}

export interface RemoteAccountDraft {
  /** The actor id. */
  uri: string;
  /** The profile page (the actor's `url`, else its id). */
  url: string;
  username: string;
  /** Host of the actor id, with its port if any. */
  domain: string;
  displayName: string;
  noteHtml: string;
  fields: AccountField[];
  avatar: ImageRef | null;
  header: ImageRef | null;
  locked: boolean;
  bot: boolean;
  group: boolean;
  discoverable: boolean;
  indexable: boolean;
  /** Its server says it suspended the actor (Mastodon's `suspended` on the actor). */
  suspended: boolean;
  /** The actor's `published` (ISO), if given. */
  publishedAt: string | null;
  emojis: RemoteEmojiDraft[];
  remote: Omit<RemoteActorInfo, "fetchedAt">;
}

export interface RemoteMediaDraft {
  type: MediaType;
  url: string;
  contentType: string | null;
  description: string | null;
  blurhash: string | null;
  meta: MediaMeta | null;
  focus: { x: number; y: number } | null;
}

export interface RemotePollDraft {
  options: { title: string; votesCount: number }[];
  multiple: boolean;
  /** When voting closes (ISO), or null. */
  expiresAt: string | null;
  /** The remote server says it is closed (`closed`). */
  closed: boolean;
  /** Distinct voters, when published (`votersCount`). */
  votersCount: number | null;
}

export interface RemoteStatusDraft {
  /** The object id. */
  uri: string;
  /** The page shown to people (`url`, else the id). */
  url: string;
  contentHtml: string;
  spoilerText: string;
  sensitive: boolean;
  language: string | null;
  visibility: Visibility;
  /** `published` (ISO), if given. */
  publishedAt: string | null;
  /** `updated` (ISO), if given. */
  updatedAt: string | null;
  /** The id of the object replied to, if any. */
  inReplyToUri: string | null;
  /** Actor ids of the Mention tags, in order, without repeats. */
  mentionUris: string[];
  /** Hashtag names, normalised, without `#`. */
  tags: string[];
  emojis: RemoteEmojiDraft[];
  media: RemoteMediaDraft[];
  poll: RemotePollDraft | null;
  /** The post it quotes (FEP-044f `quote`, or `quoteUrl` and its older names) and the stamp. */
  quote: RemoteQuoteDraft | null;
  /** Who may quote it (`interactionPolicy.canQuote`); null when it does not say. */
  quotePolicy: QuotePolicy | null;
}

export interface RemoteQuoteDraft {
  uri: string;
  /** The QuoteAuthorization that approves the quote, if the post names one. */
  authorizationUri: string | null;
}
