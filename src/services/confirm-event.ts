// After a crash, an event recorded before its write (EventBus.intend) may announce a write that
// never happened. Each event type that is recorded that way says here how to tell, and brings the
// event's record up to date from storage, so that listeners act on what is stored now.

import { isLocallySuspended } from "../domain/account.ts";
import type { DomainEvent } from "../domain/events.ts";
import type { Status } from "../domain/status.ts";
import type { Storage } from "../storage/ports.ts";

/**
 * What the record of an event recorded before its write must hold for `confirmEvent` to rebuild
 * it (EventBusOptions.intentRecord). A post's record names its status alone: the stored status
 * replaces the recorded one anyway, and a copy of the status in every post's record was most of
 * the record's bytes and of the CPU spent copying and writing it (ADR 0050).
 */
export function intentRecordOf(event: DomainEvent): DomainEvent {
  if (event.type !== "status.created") return event;
  // Only the id is read of it (below); the type says a status, which a record never is whole.
  return { type: event.type, status: { id: event.status.id } as Status };
}

export async function confirmEvent(
  storage: Storage,
  event: DomainEvent,
): Promise<DomainEvent | undefined> {
  switch (event.type) {
    case "status.created": {
      // Not stored: the post never happened. Deleted since: its Delete has gone out, and a late
      // Create would bring it back on other servers.
      const stored = await storage.statuses.get(event.status.id);
      if (!stored || stored.deleted) return undefined;
      return { ...event, status: stored };
    }
    case "status.updated": {
      // This edit, not an earlier state nor a later edit (whose own event tells the newer text).
      const stored = await storage.statuses.get(event.status.id);
      if (!stored || stored.deleted || stored.editedAt !== event.status.editedAt) return undefined;
      return { ...event, status: stored };
    }
    case "status.deleted": {
      const stored = await storage.statuses.get(event.status.id);
      if (!stored?.deleted) return undefined;
      return { ...event, status: stored };
    }
    case "status.reblogged": {
      const [reblog, original] = await Promise.all([
        storage.statuses.get(event.reblog.id),
        storage.statuses.get(event.original.id),
      ]);
      if (!reblog || reblog.deleted || !original || original.deleted) return undefined;
      return { ...event, reblog, original };
    }
    case "status.quote_policy_changed": {
      const stored = await storage.statuses.get(event.status.id);
      if (!stored || stored.deleted || stored.quotePolicy !== event.status.quotePolicy) {
        return undefined;
      }
      return { ...event, status: stored };
    }
    case "quote.accepted":
    case "quote.rejected":
    case "quote.revoked": {
      // The quote still stands as announced (a revoke after an accept has its own event).
      const state = event.type.slice("quote.".length);
      const stored = await storage.statuses.get(event.status.id);
      if (!stored || stored.deleted || stored.quote?.state !== state) return undefined;
      return { ...event, status: stored };
    }
    case "status.favourited": {
      // This favourite (by id), not one made again after an unfavourite (it has its own event).
      const { accountId, targetId, id } = event.favourite;
      const [favourite, status] = await Promise.all([
        storage.favourites.get(accountId, targetId),
        storage.statuses.get(targetId),
      ]);
      if (favourite?.id !== id || !status || status.deleted) return undefined;
      return { ...event, favourite, status };
    }
    case "status.unfavourited": {
      // Gone, or made again since (a new id, with its own event): either way it was removed.
      const { accountId, targetId, id } = event.favourite;
      const stored = await storage.favourites.get(accountId, targetId);
      return stored?.id === id ? undefined : event;
    }
    case "account.followed": {
      // This very follow: by id, and by the Follow activity it answers (a remote follower that
      // follows again keeps the id and gets an Accept for the new activity id).
      const { accountId, targetId, id, uri } = event.follow;
      const stored = await storage.follows.get(accountId, targetId);
      if (stored?.id !== id || stored.uri !== uri) return undefined;
      return { ...event, follow: stored };
    }
    case "account.follow_requested": {
      const { accountId, targetId, id } = event.request;
      const stored = await storage.followRequests.get(accountId, targetId);
      if (stored?.id !== id) return undefined;
      return { ...event, request: stored };
    }
    case "account.unfollowed": {
      const { accountId, targetId, id } = event.follow;
      return (await storage.follows.get(accountId, targetId))?.id === id ? undefined : event;
    }
    case "follow_request.closed": {
      // The request is gone (accepted, rejected, withdrawn, blocked): whatever came after it
      // (a new request has a new id) does not undo that it was closed.
      const { accountId, targetId, id } = event.request;
      return (await storage.followRequests.get(accountId, targetId))?.id === id ? undefined : event;
    }
    case "account.blocked": {
      const { accountId, targetId, id } = event.block;
      const stored = await storage.blocks.get(accountId, targetId);
      if (stored?.id !== id) return undefined;
      return { ...event, block: stored };
    }
    case "account.unblocked": {
      const { accountId, targetId, id } = event.block;
      return (await storage.blocks.get(accountId, targetId))?.id === id ? undefined : event;
    }
    case "account.domain_blocked": {
      // Still blocked (an unblock and a new block have a new id and their own event).
      const { accountId, targetId, id } = event.block;
      const stored = await storage.accountDomainBlocks.get(accountId, targetId);
      if (stored?.id !== id) return undefined;
      return { ...event, block: stored };
    }
    case "account.updated": {
      // This update or a later write of the record: the profile as stored now includes it (a
      // later change has its own event; one that changed nothing left it as this one made it).
      const stored = await storage.accounts.get(event.account.id);
      if (!stored || stored.updatedAt < event.account.updatedAt) return undefined;
      return { ...event, account: stored };
    }
    case "account.moved": {
      // The record names this target still (a later move has its own event).
      const stored = await storage.accounts.get(event.account.id);
      if (!stored || stored.movedTo !== event.target.uri) return undefined;
      return { ...event, account: stored };
    }
    case "account.suspended": {
      // Still this suspension (a lift and a new one have their own events).
      const stored = await storage.accounts.get(event.account.id);
      if (!stored?.suspended || stored.suspendedAt !== event.account.suspendedAt) return undefined;
      return { ...event, account: stored };
    }
    case "account.data_deleted": {
      // Deleted for good: nothing lifts that, so the record still says so.
      const stored = await storage.accounts.get(event.account.id);
      if (!stored?.suspended || isLocallySuspended(stored)) return undefined;
      return { ...event, account: stored };
    }
    case "account.unsuspended": {
      const stored = await storage.accounts.get(event.account.id);
      if (!stored || stored.suspended) return undefined;
      return { ...event, account: stored };
    }
    case "account.signed_up": {
      // Not rejected (deleted) since.
      const stored = await storage.accounts.get(event.account.id);
      return stored ? { ...event, account: stored } : undefined;
    }
    case "poll.voted": {
      // The voter's vote edge holds these choices (a multiple-choice voter may add more later).
      const [vote, poll] = await Promise.all([
        storage.pollVotes.get(event.voterId, event.poll.id),
        storage.polls.get(event.poll.id),
      ]);
      if (!vote || !poll || !event.choices.every((c) => vote.choices.includes(c))) return undefined;
      return { ...event, poll };
    }
    case "poll.expired": {
      // Closed by this run (its closedAt); nobody is told about a poll whose post is deleted.
      const poll = await storage.polls.get(event.poll.id);
      if (!poll?.closedAt || poll.closedAt !== event.poll.closedAt) return undefined;
      const status = await storage.statuses.get(poll.statusId);
      if (!status || status.deleted) return undefined;
      return { ...event, poll };
    }
    case "collection.item_added": {
      // The item is still in the collection, still accepted (revoked or removed since: moot).
      const collection = await storage.collections.get(event.collection.id);
      const item = collection?.items.find((i) => i.id === event.item.id);
      if (!collection || item?.state !== "accepted") return undefined;
      return { ...event, collection, item };
    }
    case "collection.updated": {
      // This update or a later one (which tells the newer name with its own event).
      const collection = await storage.collections.get(event.collection.id);
      if (!collection || collection.updatedAt < event.collection.updatedAt) return undefined;
      return { ...event, collection };
    }
    default:
      // Published without a write of their own (a refused remote follow): nothing to check.
      return event;
  }
}
