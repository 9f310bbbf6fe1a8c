// Who may see a status: Mastodon's StatusPolicy#show?. The caller supplies the facts about the
// viewer (they come from storage); the rule itself is pure.

import type { Status } from "./status.ts";

export interface ViewerFacts {
  /** The viewing account, or null for a request without a user token. */
  viewerId: string | null;
  /** Does the viewer follow the status's author? */
  followsAuthor: boolean;
  /** Has the author (or the author's domain) blocked the viewer? */
  blockedByAuthor: boolean;
}

export function canSee(status: Status, facts: ViewerFacts): boolean {
  if (status.deleted) return false;
  const { viewerId } = facts;
  if (viewerId !== null && viewerId === status.accountId) return true;
  if (facts.blockedByAuthor) return false;
  const mentioned = viewerId !== null && status.mentionIds.includes(viewerId);
  switch (status.visibility) {
    case "public":
    case "unlisted":
      return true;
    case "private":
      return mentioned || facts.followsAuthor;
    case "direct":
      return mentioned;
  }
}

/** May this status be boosted at all? Private and direct statuses may not (except by the author, for private). */
export function canReblog(status: Status, reblogger: string): boolean {
  if (status.visibility === "public" || status.visibility === "unlisted") return true;
  return status.visibility === "private" && status.accountId === reblogger;
}
