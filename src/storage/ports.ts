// The storage ports: what services may ask of persistence. Both backends (json-file, postgres)
// implement exactly these and pass the same contract suite in storage/contract/. Every write
// resolves only once the data is durable; reads never see a write that was not acknowledged.

import type { Account } from "../domain/account.ts";
import type { AccessToken, AuthorizationCode, OAuthApp } from "../domain/oauth.ts";
import type { Status } from "../domain/status.ts";
import type { User } from "../domain/user.ts";

/** Id-range window of a newest-first list (Mastodon's pagination parameters). */
export interface IdPage {
  limit: number;
  /** Only ids strictly below. */
  maxId?: string | undefined;
  /** Only ids strictly above; the newest `limit` of them. */
  sinceId?: string | undefined;
  /** Only ids strictly above; the oldest `limit` of them (results still newest first). */
  minId?: string | undefined;
}

export interface AccountStore {
  get(id: string): Promise<Account | undefined>;
  /** Batched lookup for hydration; missing ids are absent from the map. */
  getMany(ids: readonly string[]): Promise<Map<string, Account>>;
  /** Case-insensitive; `domain` null for local accounts. */
  findByUsername(username: string, domain: string | null): Promise<Account | undefined>;
  findByUri(uri: string): Promise<Account | undefined>;
  /**
   * Accounts whose username, display name or `username@domain` contain the query
   * (case-insensitive); exact username matches first, then by id.
   */
  search(
    query: string,
    options: { limit: number; offset: number; localOnly: boolean },
  ): Promise<Account[]>;
  /** Creates or replaces the record (one file per account in json-file). */
  put(account: Account): Promise<void>;
  countLocal(): Promise<number>;
  /** Distinct remote domains we know accounts of (the instance's peers). */
  domains(): Promise<string[]>;
}

export interface UserStore {
  get(accountId: string): Promise<User | undefined>;
  /** Case-insensitive. */
  findByEmail(email: string): Promise<User | undefined>;
  put(user: User): Promise<void>;
  count(): Promise<number>;
  /** Every local user (small: one per local account). */
  list(): Promise<User[]>;
}

export interface AppStore {
  get(id: string): Promise<OAuthApp | undefined>;
  findByClientId(clientId: string): Promise<OAuthApp | undefined>;
  put(app: OAuthApp): Promise<void>;
}

export interface TokenStore {
  get(id: string): Promise<AccessToken | undefined>;
  findByTokenHash(hash: string): Promise<AccessToken | undefined>;
  findByRefreshTokenHash(hash: string): Promise<AccessToken | undefined>;
  put(token: AccessToken): Promise<void>;
  /** Tokens of an account (for revoking all of them on a password reset). */
  listByAccount(accountId: string): Promise<AccessToken[]>;
}

export interface AuthorizationCodeStore {
  put(code: AuthorizationCode): Promise<void>;
  /** Returns and removes the code in one step, so a code can be exchanged only once. */
  take(codeHash: string): Promise<AuthorizationCode | undefined>;
}

export interface StatusStore {
  get(id: string): Promise<Status | undefined>;
  getMany(ids: readonly string[]): Promise<Map<string, Status>>;
  /** Saves one status individually, under its account id. */
  put(status: Status): Promise<void>;
  /** The account's statuses (deleted ones excluded), newest first. */
  listByAccount(accountId: string, page: IdPage): Promise<Status[]>;
  /** Non-deleted statuses of the account. */
  countByAccount(accountId: string): Promise<number>;
  /** Non-deleted local statuses. */
  countLocal(): Promise<number>;
}

export interface Storage {
  readonly accounts: AccountStore;
  readonly users: UserStore;
  readonly apps: AppStore;
  readonly tokens: TokenStore;
  readonly authorizationCodes: AuthorizationCodeStore;
  readonly statuses: StatusStore;
  /** Finishes pending writes and releases the data directory (lock file). */
  close(): Promise<void>;
}
