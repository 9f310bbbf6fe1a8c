// The storage ports: what services may ask of persistence. Both backends (json-file, postgres)
// implement exactly these and pass the same contract suite in storage/contract/. Every write
// resolves only once the data is durable; reads never see a write that was not acknowledged.

import type { Account } from "../domain/account.ts";
import type { Announcement, AnnouncementReaction } from "../domain/announcement.ts";
import type { Conversation } from "../domain/conversation.ts";
import type { CustomEmoji } from "../domain/custom-emoji.ts";
import type { CustomFilter } from "../domain/filter.ts";
import type { List, ListMember } from "../domain/list.ts";
import type { Marker, MarkerTimeline } from "../domain/marker.ts";
import type { MediaAttachment } from "../domain/media.ts";
import type { Notification, NotificationType } from "../domain/notification.ts";
import type { AccessToken, AuthorizationCode, OAuthApp } from "../domain/oauth.ts";
import type { Poll, PollVote } from "../domain/poll.ts";
import type { PushSubscription } from "../domain/push-subscription.ts";
import type { QuoteEdge } from "../domain/quote.ts";
import type { DumpedRecord } from "../domain/record-dump.ts";
import type {
  AccountDomainBlock,
  AccountNote,
  Block,
  Bookmark,
  ConversationMute,
  Edge,
  Endorsement,
  Favourite,
  FeaturedTag,
  Follow,
  FollowRequest,
  IdempotencyRecord,
  Mute,
  NotificationPermission,
  Pin,
  SuggestionDismissal,
  TagFollow,
} from "../domain/relations.ts";
import type { Report } from "../domain/report.ts";
import type { ScheduledStatus } from "../domain/scheduled-status.ts";
import type { Status, StatusEdit, TimelineEntry } from "../domain/status.ts";
import type { User } from "../domain/user.ts";
import type { Broadcast } from "./broadcast-port.ts";
import type { CollectionStore } from "./collection-port.ts";
import type { Coordination } from "./coordination-port.ts";
import type { JobStore } from "./job-port.ts";
import type { JoinedReads } from "./joined-reads-port.ts";
import type { KvStore } from "./kv-port.ts";
import type { VersionKind } from "./version-kinds.ts";

export type { Broadcast } from "./broadcast-port.ts";
export type { CollectionStore } from "./collection-port.ts";
export type {
  BudgetSpend,
  Coordination,
  CounterHit,
  CounterWindow,
} from "./coordination-port.ts";
export type { JobStore } from "./job-port.ts";
export type {
  AccountCounts,
  EdgeAnswers,
  EdgeKind,
  EdgeOf,
  EdgeQuestion,
  JoinedReads,
  StatusCounts,
  TokenHolder,
} from "./joined-reads-port.ts";
export type { KvEntry, KvStore } from "./kv-port.ts";
export type { VersionKind } from "./version-kinds.ts";

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

export interface DirectoryQuery {
  order: "active" | "new";
  localOnly: boolean;
  offset: number;
  limit: number;
  /** Accounts the viewer must not see (blocks and mutes). */
  excludeIds: readonly string[];
  /** Lower-case remote domains the viewer blocks. */
  excludeDomains: readonly string[];
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
  /**
   * Removes the record; false when there was none. Only for an account nothing refers to yet
   * (a rejected sign-up): its statuses, relations and media are not touched.
   */
  remove(id: string): Promise<boolean>;
  countLocal(): Promise<number>;
  /**
   * The profile directory: discoverable accounts that are not suspended, `order` "new" by id
   * (newest first), "active" by their newest status (newest first; accounts without one last,
   * newest account first), leaving out the ids and (remote) domains given.
   */
  directory(query: DirectoryQuery): Promise<Account[]>;
  /** Distinct remote domains we know accounts of (the instance's peers). */
  domains(): Promise<string[]>;
  /**
   * Every account (suspended ones too) in the id window, newest first: only local or remote ones
   * by `origin`, only those of one remote `domain` (case-insensitive) when given. The admin API's
   * list, which filters further.
   */
  list(filter: AccountListFilter, page: IdPage): Promise<Account[]>;
}

export interface AccountListFilter {
  origin: "all" | "local" | "remote";
  domain?: string | undefined;
}

export interface UserStore {
  get(accountId: string): Promise<User | undefined>;
  /** Batched get for hydration (the roles of a page's local accounts); missing ids are absent. */
  getMany(accountIds: readonly string[]): Promise<Map<string, User>>;
  /** Case-insensitive. */
  findByEmail(email: string): Promise<User | undefined>;
  put(user: User): Promise<void>;
  /** Removes the record; false when there was none. */
  remove(accountId: string): Promise<boolean>;
  count(): Promise<number>;
  /** Every local user (small: one per local account). */
  list(): Promise<User[]>;
}

export interface AppStore {
  get(id: string): Promise<OAuthApp | undefined>;
  /** Batched get for hydration (a page's statuses' applications); missing ids are absent. */
  getMany(ids: readonly string[]): Promise<Map<string, OAuthApp>>;
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

/** Structural filters on a list of statuses (viewer-dependent visibility is the caller's). */
export interface StatusFilter {
  /** Leave out replies, except an author's replies to themselves (threads), as Mastodon does. */
  excludeReplies?: boolean;
  excludeReblogs?: boolean;
  /** Only statuses with media attachments. */
  onlyMedia?: boolean;
  /** Only statuses carrying this hashtag (case-insensitive, without `#`). */
  tagged?: string;
  /** Only these visibilities; all when absent. */
  visibilities?: readonly Status["visibility"][];
}

/** Where a public or hashtag timeline draws from. */
export interface PublicFilter {
  /** local: only local statuses; remote: only remote ones; all: both. */
  origin: "all" | "local" | "remote";
  onlyMedia?: boolean;
}

export interface StatusStore {
  /** Any status by id, deleted ones included (with `deleted: true`). */
  get(id: string): Promise<Status | undefined>;
  getMany(ids: readonly string[]): Promise<Map<string, Status>>;
  /** The status (deleted ones included) with this ActivityPub id (local or remote). */
  findByUri(uri: string): Promise<Status | undefined>;
  /** Saves one status individually, under its account id. */
  put(status: Status): Promise<void>;
  /**
   * put() of a new status (a new id) unless a status is stored under its uri: then nothing is
   * written and that status is answered (undefined: this one was stored). Racing puts of one
   * uri, from any process sharing the storage, store exactly one: where the storage settles
   * that itself (PostgreSQL: a unique index on the uri, ADR 0080). Absent elsewhere, where a
   * caller storing a remote post holds its `remote-status:<uri>` lock and looks first.
   */
  putNew?(status: Status): Promise<Status | undefined>;
  /** The account's statuses (deleted ones excluded), newest first. */
  listByAccount(accountId: string, page: IdPage, filter?: StatusFilter): Promise<Status[]>;
  /** Non-deleted statuses of the account. */
  countByAccount(accountId: string): Promise<number>;
  /**
   * Batched for account views (one call per page, not several per author): each account's
   * countByAccount and when its newest listed status was created (null without one).
   */
  accountFacts(
    accountIds: readonly string[],
  ): Promise<Map<string, { count: number; lastStatusAt: string | null }>>;
  /** Non-deleted local statuses. */
  countLocal(): Promise<number>;
  /**
   * Timeline entries of statuses (and reblogs) by any of the authors, newest first, deleted ones
   * excluded. Home timelines are generated from this and filtered per viewer.
   */
  listEntriesByAccounts(accountIds: readonly string[], page: IdPage): Promise<TimelineEntry[]>;
  /**
   * Public, non-reblog, non-deleted statuses, newest first (the public timelines); replies to
   * other accounts are left out, self-replies (threads) kept, as in Mastodon's public feed.
   */
  listPublicEntries(page: IdPage, filter: PublicFilter): Promise<TimelineEntry[]>;
  /** Public, non-deleted statuses carrying the hashtag (case-insensitive), newest first. */
  listTagEntries(tag: string, page: IdPage, filter: PublicFilter): Promise<TimelineEntry[]>;
  /** Direct replies to a status (deleted ones excluded), oldest first. */
  listReplies(statusId: string): Promise<Status[]>;
  /** Number of non-deleted direct replies. */
  countReplies(statusId: string): Promise<number>;
  /** The account's non-deleted reblog of a status, if any. */
  findReblog(accountId: string, statusId: string): Promise<Status | undefined>;
  /** Non-deleted reblogs of a status, newest first (paged by the reblog's id). */
  listReblogs(statusId: string, page: IdPage): Promise<Status[]>;
  countReblogs(statusId: string): Promise<number>;
  /** Batched countReplies and countReblogs, for every id given (zeros included). */
  interactionCounts(
    statusIds: readonly string[],
  ): Promise<Map<string, { replies: number; reblogs: number }>>;
  /** Batched findReblog: the account's reblogs of these statuses, by the original's id. */
  findReblogs(accountId: string, statusIds: readonly string[]): Promise<Map<string, Status>>;
  /**
   * Deleted statuses (tombstones; deleted reblogs left out), newest first, paged by id: the
   * maintenance sweep that purges the content of old ones walks them.
   */
  listDeleted(page: IdPage): Promise<Status[]>;
  /**
   * Remote statuses, deleted ones and reblogs included, newest first, paged by id: the retention
   * sweep walks those older than its cutoff (`maxId`).
   */
  listRemote(page: IdPage): Promise<Status[]>;
  /**
   * Removes the status's record for good (not a tombstone: the retention sweep forgets remote
   * statuses, which can be fetched again); its edits, poll, media and notifications are the
   * caller's. False when there was none.
   */
  delete(id: string): Promise<boolean>;
}

export interface StatusEditStore {
  /** Earlier versions of a status, oldest first. */
  listByStatus(statusId: string): Promise<StatusEdit[]>;
  put(edit: StatusEdit): Promise<void>;
  /** Removes every earlier version of a status (purging a deleted one); returns how many. */
  deleteByStatus(statusId: string): Promise<number>;
}

/**
 * Edges of one kind (follows, blocks, favourites…): at most one per (accountId, targetId).
 * Lists are newest first by edge id and paged with IdPage on the edge id.
 */
export interface EdgeStore<E extends Edge> {
  get(accountId: string, targetId: string): Promise<E | undefined>;
  /** Creates the edge, or replaces the existing one of the same pair (keeping the given id). */
  put(edge: E): Promise<void>;
  /** Removes the pair's edge; false when there was none. */
  delete(accountId: string, targetId: string): Promise<boolean>;
  /** Edges from an account (whom it follows, what it favourited). */
  listFrom(accountId: string, page: IdPage): Promise<E[]>;
  /** Edges to a target (its followers, who favourited it). */
  listTo(targetId: string, page: IdPage): Promise<E[]>;
  countFrom(accountId: string): Promise<number>;
  countTo(targetId: string): Promise<number>;
  /** Batched countFrom, for every id given (zeros included). */
  countFromMany(accountIds: readonly string[]): Promise<Map<string, number>>;
  /** Batched countTo, for every id given (zeros included). */
  countToMany(targetIds: readonly string[]): Promise<Map<string, number>>;
  /** Batched: which of `targetIds` the account has an edge to (for relationships and flags). */
  findFrom(accountId: string, targetIds: readonly string[]): Promise<Map<string, E>>;
  /** Batched: which of `accountIds` have an edge to the target (e.g. "followed by"). */
  findTo(targetId: string, accountIds: readonly string[]): Promise<Map<string, E>>;
  /** Every target the account has an edge to (home timeline authors, muted accounts). */
  allTargetsFrom(accountId: string): Promise<string[]>;
}

export interface IdempotencyStore {
  get(keyHash: string): Promise<IdempotencyRecord | undefined>;
  put(record: IdempotencyRecord): Promise<void>;
  /**
   * Stores `record` unless a record with its key exists, atomically across processes; returns
   * the record that holds afterwards: `record` itself when it was stored, else the existing one
   * (so of two racing posts, exactly one learns it won).
   */
  putIfAbsent(record: IdempotencyRecord): Promise<IdempotencyRecord>;
  /** Forgets records created before `before` (ISO); Mastodon keeps keys for an hour. */
  prune(before: string): Promise<number>;
}

export interface PollStore {
  get(id: string): Promise<Poll | undefined>;
  getMany(ids: readonly string[]): Promise<Map<string, Poll>>;
  put(poll: Poll): Promise<void>;
  /** Removes the poll (with its status, by the retention sweep); false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Every poll's id, local and remote (the start-up count repair walks them). */
  listIds(): Promise<string[]>;
}

/** Which notifications of a recipient to list. */
export interface NotificationFilter {
  /** Only these types (empty or absent: all). */
  types?: readonly NotificationType[];
  excludeTypes?: readonly NotificationType[];
  /** Only those caused by this account. */
  fromAccountId?: string;
  /** true: only those held by the policy (Notification.filtered); false: only the others. */
  filtered?: boolean;
}

export interface NotificationStore {
  get(id: string): Promise<Notification | undefined>;
  put(notification: Notification): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** The recipient's notifications, newest first. */
  listFor(accountId: string, page: IdPage, filter?: NotificationFilter): Promise<Notification[]>;
  /** The recipient's notification of this exact kind, if one exists (to avoid duplicates). */
  find(
    accountId: string,
    type: NotificationType,
    fromAccountId: string,
    statusId: string | null,
  ): Promise<Notification | undefined>;
  /** Notifications with ids above `sinceId` (all when absent), up to `limit`. */
  countFor(
    accountId: string,
    options: { sinceId?: string; limit: number; filter?: NotificationFilter },
  ): Promise<number>;
  /** Removes all of the recipient's notifications. */
  clear(accountId: string): Promise<void>;
  /** Removes the notifications about a status (when it is deleted). */
  deleteByStatus(statusId: string): Promise<void>;
  /** Batched: which of these statuses some notification is about (the retention sweep keeps them). */
  findStatusIds(statusIds: readonly string[]): Promise<Set<string>>;
}

export interface AnnouncementStore {
  get(id: string): Promise<Announcement | undefined>;
  /** All announcements, newest first. */
  list(): Promise<Announcement[]>;
  put(announcement: Announcement): Promise<void>;
  delete(id: string): Promise<boolean>;
}

export interface AnnouncementReactionStore {
  /** Adds the reaction unless the account already gave that one. */
  put(reaction: AnnouncementReaction): Promise<void>;
  delete(announcementId: string, accountId: string, name: string): Promise<boolean>;
  listByAnnouncement(announcementId: string): Promise<AnnouncementReaction[]>;
  /** Removes every reaction to an announcement (when it is deleted). */
  deleteByAnnouncement(announcementId: string): Promise<void>;
}

/**
 * Reports for the moderators: filed by local users, or received from other servers (Flag
 * activities). Reports are read whole (`reportOf`), whatever shape they were stored in.
 */
export interface ReportStore {
  get(id: string): Promise<Report | undefined>;
  /** The report made by this Flag activity id, if any. */
  findByUri(uri: string): Promise<Report | undefined>;
  /** Newest first; with `resolved`, only the resolved (or only the open) reports. */
  list(page: IdPage, filter?: { resolved: boolean }): Promise<Report[]>;
  put(report: Report): Promise<void>;
}

/** Statuses waiting to be published at a time (POST /api/v1/statuses with scheduled_at). */
export interface ScheduledStatusStore {
  get(id: string): Promise<ScheduledStatus | undefined>;
  /** Creates or replaces the record. */
  put(scheduled: ScheduledStatus): Promise<void>;
  /** Removes it (published or cancelled); false when there was none. */
  delete(id: string): Promise<boolean>;
  /** The account's scheduled statuses, newest id first. */
  listByAccount(accountId: string, page: IdPage): Promise<ScheduledStatus[]>;
  /**
   * How many the account has waiting; with `window` (ISO times), only those whose scheduledAt
   * lies in [from, to) (Mastodon's daily limit).
   */
  countByAccount(accountId: string, window?: { from: string; to: string }): Promise<number>;
}

export interface CustomEmojiStore {
  get(id: string): Promise<CustomEmoji | undefined>;
  /** Case-sensitive, as Mastodon matches shortcodes; `domain` null for local emojis. */
  findByShortcode(shortcode: string, domain: string | null): Promise<CustomEmoji | undefined>;
  /** Batched lookup for rendering: the known emojis among the shortcodes of one domain. */
  findByShortcodes(
    shortcodes: readonly string[],
    domain: string | null,
  ): Promise<Map<string, CustomEmoji>>;
  /** Local emojis, by shortcode. */
  listLocal(): Promise<CustomEmoji[]>;
  put(emoji: CustomEmoji): Promise<void>;
  delete(id: string): Promise<boolean>;
}

/** Users' lists; their members are the `listMembers` edges (list → account). */
export interface ListStore {
  get(id: string): Promise<List | undefined>;
  /** The owner's lists, oldest first. */
  listByAccount(accountId: string): Promise<List[]>;
  put(list: List): Promise<void>;
  /** Removes the list (its member edges are the caller's); false when there was none. */
  delete(id: string): Promise<boolean>;
}

/** Filters (domain/filter.ts), each with its keywords and statuses, kept per account. */
export interface FilterStore {
  get(id: string): Promise<CustomFilter | undefined>;
  /** The account's filters, oldest first. Read on every timeline page: keep it cheap. */
  listByAccount(accountId: string): Promise<CustomFilter[]>;
  /**
   * Batched listByAccount (the streaming fan-out asks for every connected viewer at once): the
   * filters of each account given that has any, oldest first; accounts without are left out.
   */
  listByAccounts(accountIds: readonly string[]): Promise<Map<string, CustomFilter[]>>;
  put(filter: CustomFilter): Promise<void>;
  delete(id: string): Promise<boolean>;
}

export interface MarkerStore {
  get(accountId: string, timeline: MarkerTimeline): Promise<Marker | undefined>;
  put(marker: Marker): Promise<void>;
}

export interface ConversationStore {
  get(id: string): Promise<Conversation | undefined>;
  /** The account's entry for a thread, if it has one. */
  find(accountId: string, conversationId: string): Promise<Conversation | undefined>;
  put(conversation: Conversation): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** The account's conversations, newest last status first, paged by lastStatusId. */
  listFor(accountId: string, page: IdPage): Promise<Conversation[]>;
}

export interface MediaStore {
  get(id: string): Promise<MediaAttachment | undefined>;
  getMany(ids: readonly string[]): Promise<Map<string, MediaAttachment>>;
  put(media: MediaAttachment): Promise<void>;
  delete(id: string): Promise<boolean>;
  /** Unattached attachments created before `before` (ISO), oldest first (for cleanup). */
  listUnattachedBefore(before: string, limit: number): Promise<MediaAttachment[]>;
}

/** Web Push subscriptions, one per access token (Mastodon's web_push_subscriptions). */
export interface PushSubscriptionStore {
  /** The subscription of the access token `tokenId`. */
  get(tokenId: string): Promise<PushSubscription | undefined>;
  /** The subscriptions of an account's tokens (any order). */
  listByAccount(accountId: string): Promise<PushSubscription[]>;
  /** Creates or replaces the subscription of its token. */
  put(subscription: PushSubscription): Promise<void>;
  /** Removes the token's subscription; false when it had none. */
  delete(tokenId: string): Promise<boolean>;
}

export interface Storage {
  readonly accounts: AccountStore;
  readonly users: UserStore;
  readonly apps: AppStore;
  readonly tokens: TokenStore;
  readonly authorizationCodes: AuthorizationCodeStore;
  readonly statuses: StatusStore;
  readonly statusEdits: StatusEditStore;
  readonly follows: EdgeStore<Follow>;
  readonly followRequests: EdgeStore<FollowRequest>;
  readonly blocks: EdgeStore<Block>;
  readonly mutes: EdgeStore<Mute>;
  readonly favourites: EdgeStore<Favourite>;
  readonly bookmarks: EdgeStore<Bookmark>;
  readonly pins: EdgeStore<Pin>;
  readonly conversationMutes: EdgeStore<ConversationMute>;
  /** Followed hashtags: account → normalised tag name. */
  readonly tagFollows: EdgeStore<TagFollow>;
  /** Hashtags featured on profiles: account → normalised tag name. */
  readonly featuredTags: EdgeStore<FeaturedTag>;
  /** Private notes about accounts: author → account. */
  readonly accountNotes: EdgeStore<AccountNote>;
  /** A user's blocks of whole servers: account → domain. */
  readonly accountDomainBlocks: EdgeStore<AccountDomainBlock>;
  /** Senders whose notifications always pass the policy: user → sender. */
  readonly notificationPermissions: EdgeStore<NotificationPermission>;
  /** Accounts featured on profiles: account → featured account. */
  readonly endorsements: EdgeStore<Endorsement>;
  /** Accounts dismissed from follow suggestions: account → dismissed account. */
  readonly suggestionDismissals: EdgeStore<SuggestionDismissal>;
  /** Accepted quotes: quoting status → quoted status (domain/quote.ts). */
  readonly quotes: EdgeStore<QuoteEdge>;
  readonly idempotency: IdempotencyStore;
  readonly polls: PollStore;
  readonly pollVotes: EdgeStore<PollVote>;
  readonly notifications: NotificationStore;
  readonly announcements: AnnouncementStore;
  /** Who dismissed (read) which announcement: account → announcement. */
  readonly announcementDismissals: EdgeStore<Edge>;
  readonly announcementReactions: AnnouncementReactionStore;
  readonly customEmojis: CustomEmojiStore;
  readonly reports: ReportStore;
  readonly scheduledStatuses: ScheduledStatusStore;
  readonly markers: MarkerStore;
  readonly pushSubscriptions: PushSubscriptionStore;
  readonly lists: ListStore;
  /** Who is in which list: list id → member account id. */
  readonly listMembers: EdgeStore<ListMember>;
  /** Users' collections of featured accounts, with their items. */
  readonly collections: CollectionStore;
  readonly filters: FilterStore;
  readonly conversations: ConversationStore;
  readonly jobs: JobStore;
  readonly media: MediaStore;
  /** Federation state: remote document caches, actor key pairs, idempotence marks. */
  readonly kv: KvStore;
  /** Locks, counters and id space shared by every process on this storage. */
  readonly coordination: Coordination;
  /** The streaming signals between processes (ids only; broadcast-port.ts). */
  readonly broadcast: Broadcast;
  /** Cross-store reads of the hot paths, one statement each on a database. */
  readonly joined: JoinedReads;
  /**
   * A number that changes whenever anything an API answer can show changes: everything this
   * storage holds but the job queue, whose churn (a few writes per delivery of a fan-out) would
   * otherwise drop kept answers it never appears in. An answer computed entirely while it kept
   * one value is still exact as long as it keeps that value, which lets the HTTP layer keep
   * public answers without missing a write. A backend shared by several processes must change it
   * for the other processes' writes too.
   */
  version(): number;
  /**
   * A number that moves whenever a change of records of one of `kinds` is made visible, in the
   * same step and under the same rules as version() (which moves with each of them): a memo that
   * reads only those kinds, computed while it kept one value, is exact while it keeps it, and
   * stays kept across the writes of the other kinds (ADR 0072). A change whose kind a backend
   * cannot tell (a signal naming no table) moves every kind.
   */
  versionOf(kinds: readonly VersionKind[]): number;
  /**
   * Every record, for moving a whole instance to another backend (`wren export`): kinds in
   * RECORD_KINDS order, each kind's records by dumpKey under compareDumpKeys
   * (domain/record-dump.ts), so two backends holding the same records list them alike.
   */
  dump(): AsyncIterable<DumpedRecord>;
  /** Finishes pending writes and releases the data directory (lock file). */
  close(): Promise<void>;
}
