import type { Visibility } from "./account.ts";
import type { QuotePolicy, StatusQuote } from "./quote.ts";

/**
 * A status as stored. `deleted` is internal: it never reaches a client or a peer; a deleted
 * status answers 404 in the API and a Tombstone (410) over ActivityPub.
 */
export interface Status {
  id: string;
  accountId: string;
  uri: string;
  url: string;
  /** The text as typed (local statuses); empty for remote ones. */
  text: string;
  contentHtml: string;
  spoilerText: string;
  visibility: Visibility;
  sensitive: boolean;
  language: string | null;
  inReplyToId: string | null;
  inReplyToAccountId: string | null;
  /** The id of the thread's root status (itself for a root); muting a conversation keys on it. */
  conversationId: string;
  reblogOfId: string | null;
  mentionIds: string[];
  tags: string[];
  mediaIds: string[];
  pollId: string | null;
  applicationId: string | null;
  local: boolean;
  createdAt: string;
  editedAt: string | null;
  deleted: boolean;
  deletedAt: string | null;
  /** The status this one quotes (domain/quote.ts); absent or null for none. */
  quote?: StatusQuote | null;
  /**
   * Who may quote it; null for a remote status that states no policy. Absent on records stored
   * before quotes existed (domain/quote.ts effectiveQuotePolicy reads them).
   */
  quotePolicy?: QuotePolicy | null;
}

/** One earlier version of an edited status (Mastodon's StatusEdit), oldest first. */
export interface StatusEdit {
  id: string;
  statusId: string;
  accountId: string;
  text: string;
  contentHtml: string;
  spoilerText: string;
  sensitive: boolean;
  mediaIds: string[];
  createdAt: string;
}

/** An entry of a generated timeline, hydrated into full statuses afterwards (DESIGN §1). */
export interface TimelineEntry {
  account_id: string;
  status_id: string;
}
