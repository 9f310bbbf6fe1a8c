// Who may see a status: Mastodon's StatusPolicy#show?. The caller supplies the facts about the
// viewer (they come from storage); the rule itself is pure.

import type { Visibility } from "./account.ts";
import type { Status } from "./status.ts";

export interface ViewerFacts {
  /** The viewing account, or null for a request without a user token. */
  viewerId: string | null;
  /** Does the viewer follow the status's author? */
  followsAuthor: boolean;
  /** Has the author (or the author's domain) blocked the viewer? */
  blockedByAuthor: boolean;
}

/** What is known of a reader without a user token (or an unsigned fetch): nothing. */
export const ANONYMOUS: ViewerFacts = {
  viewerId: null,
  followsAuthor: false,
  blockedByAuthor: false,
};

/** Public and unlisted statuses: addressed to everyone, anonymous readers included. */
export function isOpenToAll(visibility: Visibility): boolean {
  return visibility === "public" || visibility === "unlisted";
}

export function canSee(status: Status, facts: ViewerFacts): boolean {
  if (status.deleted) return false;
  const { viewerId } = facts;
  if (viewerId !== null && viewerId === status.accountId) return true;
  if (facts.blockedByAuthor) return false;
  if (isOpenToAll(status.visibility)) return true;
  const mentioned = viewerId !== null && status.mentionIds.includes(viewerId);
  // Private: followers and mentioned accounts; direct: mentioned accounts only.
  return status.visibility === "private" ? mentioned || facts.followsAuthor : mentioned;
}

/** May anyone at all see the status, e.g. an anonymous reader? Needs no facts from storage. */
export function visibleToAnyone(status: Status): boolean {
  return canSee(status, ANONYMOUS);
}

/** May this status be boosted at all? Private and direct statuses may not (except by the author, for private). */
export function canReblog(status: Status, reblogger: string): boolean {
  if (isOpenToAll(status.visibility)) return true;
  return status.visibility === "private" && status.accountId === reblogger;
}
