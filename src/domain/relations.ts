// Edges between an account and something it acts on: another account (follow, follow request,
// block, mute) or a status (favourite, bookmark, pin, conversation mute). One edge per
// (accountId, targetId) pair; its id orders lists newest first and pages them.

export interface Edge {
  id: string;
  /** Who acts: the follower, the blocker, the one who favourites. */
  accountId: string;
  /** What it acts on: an account id, or a status id (a conversation id for status mutes). */
  targetId: string;
  createdAt: string;
}

export interface Follow extends Edge {
  /** Show the target's boosts in the follower's home timeline. */
  showReblogs: boolean;
  /** Notify the follower when the target posts. */
  notify: boolean;
  /** Only statuses in these languages reach home; null for all. */
  languages: string[] | null;
  /** The ActivityPub Follow activity id, for Accept/Undo with remote peers. */
  uri: string | null;
}

/** A follow awaiting the (locked) target's approval; becomes a Follow when authorized. */
export type FollowRequest = Follow;

export interface Block extends Edge {
  uri: string | null;
}

export interface Mute extends Edge {
  hideNotifications: boolean;
  /** ISO time the mute lapses, or null for an indefinite mute. */
  expiresAt: string | null;
}

/** A private note a user keeps about another account (Mastodon's AccountNote). */
export interface AccountNote extends Edge {
  comment: string;
}

/**
 * A user's own block of a whole server (Mastodon's AccountDomainBlock): `targetId` is the
 * normalised domain. Distinct from the operator's instance-wide domain blocks.
 */
export type AccountDomainBlock = Edge;

/**
 * A sender whose notifications always reach the user, whatever the notification policy: the
 * user accepted a request from them (Mastodon's NotificationPermission). `targetId` is the sender.
 */
export type NotificationPermission = Edge;

/**
 * An account a user features on their profile (Mastodon's AccountPin, "endorsement"): the target
 * is an account the user follows.
 */
export type Endorsement = Edge;

/** An account a user dismissed from their follow suggestions: never suggested to them again. */
export type SuggestionDismissal = Edge;

/** Favourites, bookmarks, pins and conversation mutes carry nothing beyond the edge. */
export type Favourite = Edge & { uri: string | null };
export type Bookmark = Edge;
export type Pin = Edge;
export type ConversationMute = Edge;

/** A followed hashtag (its statuses reach home): the target is the tag's normalised name. */
export type TagFollow = Edge;

/**
 * A hashtag shown on a profile: the target is the tag's normalised name, `name` the name as its
 * owner typed it (Mastodon shows that casing).
 */
export interface FeaturedTag extends Edge {
  name: string;
}

/** A remembered Idempotency-Key: a retried POST answers with the status made the first time. */
export interface IdempotencyRecord {
  /** Hash of the account id and the client's key. */
  keyHash: string;
  statusId: string;
  createdAt: string;
}
