import type { Visibility } from "./account.ts";

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
}
