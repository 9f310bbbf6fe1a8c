// The outbox bridge: turns domain events about local acts into ActivityPub activities and
// queues them for the peers that must know. Only local accounts' acts are sent — ingestion
// publishes the same events for remote acts, and those must never be echoed back. Queueing
// failures are retried by the event bus and never reach the use case; delivery failures are
// Fedify's to retry (OUTBOX_RETRY_POLICY, circuit breaker: federation.ts).

import type { Federation } from "@fedify/fedify";
import type { DomainEvent } from "../../domain/events.ts";
import type { ServiceContext } from "../../services/context.ts";
import { createOutbox, type Outbox } from "./deliver.ts";
import { sendAccept, sendBlock, sendFollow, sendReject, sendUnfollow } from "./graph.ts";
import { sendLike } from "./interactions.ts";
import { sendPollUpdate, sendVote } from "./polls.ts";
import { sendActorDelete, sendMove, sendProfileUpdate } from "./profile.ts";
import { sendQuoteAnswer, sendQuoteRequest, sendStampDelete } from "./quotes.ts";
import { sendFlag } from "./reports.ts";
import { sendAnnounce, sendCreate, sendDelete, sendUpdate } from "./statuses.ts";

async function dispatch(outbox: Outbox, event: DomainEvent): Promise<void> {
  switch (event.type) {
    case "status.created":
      await sendCreate(outbox, event.status, event);
      return sendQuoteRequest(outbox, event.status);
    case "status.quote_policy_changed":
      return sendUpdate(outbox, event.status, true);
    case "quote.accepted":
    case "quote.rejected":
      return sendQuoteAnswer(outbox, event.status);
    case "quote.revoked":
      return sendStampDelete(outbox, event.status);
    case "status.updated":
      return sendUpdate(outbox, event.status);
    case "status.deleted":
      return sendDelete(outbox, event.status);
    case "status.reblogged":
      return sendAnnounce(outbox, event.reblog, event.original);
    case "status.favourited":
      return sendLike(outbox, event.favourite, event.status, false);
    case "status.unfavourited":
      return sendLike(outbox, event.favourite, undefined, true);
    case "account.follow_requested":
      return sendFollow(outbox, event.request);
    case "follow_request.closed":
      // Accepted: account.followed follows and answers. Blocked: the Block says it all.
      if (event.outcome === "withdrawn") return sendUnfollow(outbox, event.request);
      if (event.outcome === "rejected") return sendReject(outbox, event.request);
      return;
    case "account.followed":
      return sendAccept(outbox, event.follow);
    case "account.unfollowed":
      if (event.cause === "unfollow") return sendUnfollow(outbox, event.follow);
      if (event.cause === "removed") return sendReject(outbox, event.follow);
      return;
    case "account.blocked":
      return sendBlock(outbox, event.block, false);
    case "account.unblocked":
      return sendBlock(outbox, event.block, true);
    case "account.updated":
      return sendProfileUpdate(outbox, event.account);
    case "account.suspended":
      // Its followers' servers get the actor flagged `suspended` (Mastodon's
      // SuspendAccountService sends an Update); the Delete waits for the data's deletion.
      return sendProfileUpdate(outbox, event.account);
    case "account.unsuspended":
      // Back: peers learn the profile again (Mastodon sends an Update).
      return sendProfileUpdate(outbox, event.account);
    case "account.data_deleted":
      return sendActorDelete(outbox, event.account);
    case "account.moved":
      return sendMove(outbox, event.account, event.target);
    case "poll.voted":
      await sendVote(outbox, event.poll, event.voterId, event.choices);
      return sendPollUpdate(outbox, event.poll);
    case "poll.expired":
      return sendPollUpdate(outbox, event.poll);
    case "report.created":
      return sendFlag(outbox, event.report);
  }
}

export function subscribeOutbox(federation: Federation<ServiceContext>, ctx: ServiceContext): void {
  const outbox = createOutbox(federation, ctx);
  // A failure (say, the queue's storage) never fails the local act: the event bus retries this
  // listener later (ADR 0013). A repeat queues the activity again, which peers take as a repeat.
  ctx.events.subscribe("federation", (event) => dispatch(outbox, event));
}
