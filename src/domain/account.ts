// The account record: one per person, local or remote (a remote actor gets a local record too).
// Records hold sources and rendered HTML; URLs of hosted images are derived from file-host keys
// when serialised, so moving the media origin does not rewrite every record.

export type Visibility = "public" | "unlisted" | "private" | "direct";

/** An image held by our file host (`key`) or, for remote accounts, at a remote URL. */
export type ImageRef =
  | { kind: "hosted"; key: string; staticKey: string; contentType: string }
  | { kind: "remote"; url: string; staticUrl: string };

export interface AccountField {
  name: string;
  /** What the owner typed (local) or the remote HTML (remote). */
  value: string;
  valueHtml: string;
  verifiedAt: string | null;
}

/**
 * What we learnt from a remote actor document beyond the profile: where to deliver, its
 * collections, and when it was last fetched (records older than a day are refreshed on use).
 */
export interface RemoteActorInfo {
  inbox: string;
  sharedInbox: string | null;
  outbox: string | null;
  followers: string | null;
  following: string | null;
  featured: string | null;
  /** Other ids of the same person (a Move is honoured only towards one of these). */
  alsoKnownAs: string[];
  /** The account this one moved to (Mastodon's `moved`), as an ActivityPub id. */
  movedTo: string | null;
  /** Counters the remote server publishes (totalItems), when it publishes them. */
  followersCount: number | null;
  followingCount: number | null;
  statusesCount: number | null;
  fetchedAt: string;
}

export interface Account {
  id: string;
  username: string;
  /** null for local accounts; the remote host otherwise. */
  domain: string | null;
  displayName: string;
  /** The bio as typed by a local owner; empty for remote accounts. */
  note: string;
  noteHtml: string;
  locked: boolean;
  bot: boolean;
  group: boolean;
  discoverable: boolean;
  indexable: boolean;
  fields: AccountField[];
  avatar: ImageRef | null;
  header: ImageRef | null;
  /** The ActivityPub id. */
  uri: string;
  /** The profile page shown to people. */
  url: string;
  createdAt: string;
  updatedAt: string;
  /** Only for remote accounts. */
  remote?: RemoteActorInfo;
  /**
   * Only for local accounts: the ActivityPub ids of the owner's other accounts (the actor's
   * `alsoKnownAs`), which a Move from them to this one must find here. Remote: remote.alsoKnownAs.
   */
  aliases?: string[];
  /** Only for local accounts that moved away: the ActivityPub id of the new account. */
  movedTo?: string;
  /**
   * Hidden everywhere: a remote account removed by its server (actor Delete; kept so ids stay
   * stable, never revived by a later activity), or an account our moderators suspended
   * (`suspensionOrigin` "local"; reversible until its data is deleted).
   */
  suspended?: boolean;
  /** When it was suspended (absent on records from before moderation). */
  suspendedAt?: string;
  /** "local": by our moderators. Absent (or "remote") with `suspended`: its server deleted it. */
  suspensionOrigin?: "local" | "remote";
  /** When a moderator limited (silenced) it: its posts leave public timelines for non-followers. */
  silencedAt?: string;
  /** When a moderator marked its media sensitive: every attachment shows as sensitive. */
  sensitizedAt?: string;
  /**
   * Only for remote accounts suspended by an admin's `suspend` domain block: that block's
   * domain, so lifting the block lifts the suspension (an actor Delete never is lifted).
   */
  suspendedByDomainBlock?: string;
  /**
   * Only for remote accounts whose own actor document says `suspended` (its server suspended
   * it, as Mastodon's Update of a suspended actor says): a later document without the flag
   * lifts the suspension, as Mastodon's remote-origin suspensions are lifted.
   */
  suspendedByItsServer?: true;
}

/** Mastodon's rule for local usernames. */
export const USERNAME_PATTERN = /^[a-z0-9_]+([a-z0-9_.-]+[a-z0-9_]+)?$/i;
export const USERNAME_MAX_LENGTH = 30;
export const DISPLAY_NAME_MAX_LENGTH = 30;
export const NOTE_MAX_LENGTH = 500;
export const MAX_PROFILE_FIELDS = 4;
export const FIELD_NAME_MAX_LENGTH = 255;
export const FIELD_VALUE_MAX_LENGTH = 255;

export function isLocal(account: Account): boolean {
  return account.domain === null;
}

/** Most aliases an account may list (as Mastodon's account_aliases). */
export const MAX_LOCAL_ALIASES = 10;

/** The ActivityPub ids the account says are also its owner's (`alsoKnownAs`). */
export function aliasesOf(account: Account): readonly string[] {
  return account.remote?.alsoKnownAs ?? account.aliases ?? [];
}

/** The ActivityPub id of the account this one moved to, or null. */
export function movedToOf(account: Account): string | null {
  return (account.remote ? account.remote.movedTo : account.movedTo) ?? null;
}

/** `username` for local accounts, `username@domain` for remote ones (Mastodon's `acct`). */
export function acctOf(account: Account): string {
  return account.domain === null ? account.username : `${account.username}@${account.domain}`;
}

/** Suspended by our moderators (not deleted by its server): unsuspending restores it. */
export function isLocallySuspended(account: Account): boolean {
  return account.suspended === true && account.suspensionOrigin === "local";
}

/**
 * Suspended for good or by us: the account is shut out (its activities refused, its record never
 * refreshed). One its own server flagged is not: its server may lift the flag.
 */
export function isShutOut(account: Account): boolean {
  return account.suspended === true && account.suspendedByItsServer !== true;
}

export function isSilenced(account: Account): boolean {
  return account.silencedAt !== undefined;
}

export function isSensitized(account: Account): boolean {
  return account.sensitizedAt !== undefined;
}
