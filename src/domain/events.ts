// Domain events: facts that use cases publish about their writes. Notifications, conversations,
// media purges and outgoing federation react to them, so a use case never needs to know who
// listens, and a listener's failure never undoes the action that happened. Every event is
// recorded in a job before its listeners run (ADR 0013), so it must stay plain JSON: records with
// ISO time strings, never Dates, Maps or class instances.

import type { Account } from "./account.ts";
import type { Collection, CollectionItem } from "./collection.ts";
import type { Poll } from "./poll.ts";
import type { AccountDomainBlock, Block, Favourite, Follow, FollowRequest } from "./relations.ts";
import type { Report } from "./report.ts";
import type { Status } from "./status.ts";

export type DomainEvent =
  | { type: "status.created"; status: Status }
  | { type: "status.updated"; status: Status }
  | { type: "status.deleted"; status: Status }
  | { type: "status.reblogged"; reblog: Status; original: Status }
  /**
   * The quote `status` makes was approved (domain/quote.ts), after it was stored: a local quote
   * of a local status, a remote server's QuoteRequest we granted, or our request it granted.
   */
  | { type: "quote.accepted"; status: Status }
  /** The quoted author withdrew the approval of the quote `status` makes. */
  | { type: "quote.revoked"; status: Status }
  /** The author changed who may quote `status` (no edit: peers get the Note again). */
  | { type: "status.quote_policy_changed"; status: Status }
  /** A local author's policy refused the quote a remote `status` asked approval for. */
  | { type: "quote.rejected"; status: Status }
  | { type: "status.favourited"; favourite: Favourite; status: Status }
  | { type: "status.unfavourited"; favourite: Favourite }
  /** `fromRequest`: the follow is a follow request that was just accepted. */
  | { type: "account.followed"; follow: Follow; fromRequest?: boolean }
  /** A follow ended: the follower unfollowed, the followed removed them, or a block ended it. */
  | { type: "account.unfollowed"; follow: Follow; cause: "unfollow" | "removed" | "block" }
  | { type: "account.follow_requested"; request: FollowRequest }
  /** A pending request is gone: accepted, rejected, withdrawn, or ended by a block. */
  | {
      type: "follow_request.closed";
      request: FollowRequest;
      outcome: "accepted" | "rejected" | "withdrawn" | "blocked";
    }
  | { type: "account.blocked"; block: Block }
  | { type: "account.unblocked"; block: Block }
  /** A user blocked a whole server: its follows with the user end (graph/domain-block-sever.ts). */
  | { type: "account.domain_blocked"; block: AccountDomainBlock }
  | { type: "account.updated"; account: Account }
  /** A local account moved to `target` (its record now names it in `movedTo`). */
  | { type: "account.moved"; account: Account; target: Account }
  /** Someone signed up (the API or the web page); the staff are told. */
  | { type: "account.signed_up"; account: Account }
  /** A moderator suspended the account (local: other servers get its actor, flagged). */
  | { type: "account.suspended"; account: Account }
  /** A moderator lifted the suspension. */
  | { type: "account.unsuspended"; account: Account }
  /** A suspended account's data was deleted, for good (local: its actor is deleted elsewhere). */
  | { type: "account.data_deleted"; account: Account }
  | { type: "poll.voted"; poll: Poll; voterId: string; choices: number[] }
  | { type: "poll.expired"; poll: Poll }
  /** A local user filed a report (received Flags publish nothing: they go nowhere else). */
  | { type: "report.created"; report: Report }
  /** An account was featured in a collection (created with it, or added later). */
  | { type: "collection.item_added"; collection: Collection; item: CollectionItem }
  /** A collection's name or description changed: its accepted local accounts hear of it. */
  | { type: "collection.updated"; collection: Collection }
  /**
   * A user accepted (the sender may now always notify them) or dismissed the notification
   * request of a sender: that sender's held notifications are to be shown, or deleted.
   */
  | {
      type: "notification_request.settled";
      recipientId: string;
      fromAccountId: string;
      outcome: "accepted" | "dismissed";
    };

export type DomainEventType = DomainEvent["type"];
