// The reads that ask across stores in one call (one statement on a shared database): part of
// ports.ts, kept apart for its size. Imports only domain/ and the ports themselves.

import type { Account } from "../domain/account.ts";
import type { AccessToken, OAuthApp } from "../domain/oauth.ts";
import type { User } from "../domain/user.ts";
import type { EdgeStore, Storage } from "./ports.ts";

/** The edge stores of Storage by name: the kinds the joined edge lookups ask about. */
export type EdgeKind =
  | "follows"
  | "followRequests"
  | "blocks"
  | "mutes"
  | "favourites"
  | "bookmarks"
  | "pins"
  | "conversationMutes"
  | "pollVotes"
  | "announcementDismissals"
  | "tagFollows"
  | "featuredTags"
  | "listMembers"
  | "accountNotes"
  | "accountDomainBlocks"
  | "notificationPermissions"
  | "endorsements"
  | "suggestionDismissals"
  | "quotes";

/** The edge record of a kind. */
export type EdgeOf<K extends EdgeKind> = Storage[K] extends EdgeStore<infer E> ? E : never;

/**
 * One batched edge lookup about one account: "from" asks what the store of `kind` answers to
 * findFrom(account, ids) (edges from the account, by target), "to" what findTo(account, ids)
 * answers (edges to the account, by their account).
 */
export interface EdgeQuestion<K extends EdgeKind = EdgeKind> {
  kind: K;
  direction: "from" | "to";
  ids: readonly string[];
}

/** The answers to edge questions, in their order. */
export type EdgeAnswers<Q extends readonly EdgeQuestion[]> = {
  [I in keyof Q]: Q[I] extends EdgeQuestion<infer K> ? Map<string, EdgeOf<K>> : never;
};

/** What authenticating a bearer token reads; each part undefined when missing. */
export interface TokenHolder {
  token: AccessToken;
  app: OAuthApp | undefined;
  /** For a user token (accountId set): its account and user. */
  account: Account | undefined;
  user: User | undefined;
}

/** The counters shown next to a status. */
export interface StatusCounts {
  replies: number;
  reblogs: number;
  favourites: number;
  /** Quotes stored of it (accepted, or waiting for a remote author's answer). */
  quotes: number;
}

/** The counters shown next to an account (its own; a remote server may know better ones). */
export interface AccountCounts {
  statuses: number;
  /** When its newest status was created (ISO), null without one. */
  lastStatusAt: string | null;
  followers: number;
  following: number;
}

/**
 * Reads of the hot request paths that span several stores. Each is the same as asking the
 * stores named in its comment, but a database answers it in one statement, where asking store
 * by store costs a round trip each (the json-file backend answers from the stores' memory).
 */
export interface JoinedReads {
  /** tokens.findByTokenHash, then apps.get(appId), accounts.get and users.get(accountId). */
  tokenHolder(tokenHash: string): Promise<TokenHolder | undefined>;
  /** Each question's findFrom / findTo about `accountId`, on the edge store of its kind. */
  edges<const Q extends readonly EdgeQuestion[]>(
    accountId: string,
    questions: Q,
  ): Promise<EdgeAnswers<Q>>;
  /** statuses.interactionCounts and favourites.countToMany, for every id given (zeros too). */
  statusCounts(statusIds: readonly string[]): Promise<Map<string, StatusCounts>>;
  /**
   * statuses.accountFacts, follows.countToMany (followers) and follows.countFromMany
   * (following), for every id given (zeros too).
   */
  accountCounts(accountIds: readonly string[]): Promise<Map<string, AccountCounts>>;
}
