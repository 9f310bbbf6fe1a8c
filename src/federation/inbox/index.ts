// The personal (`/users/{identifier}/inbox`) and shared (`/inbox`) inboxes. Wren's gate
// verifies the signature with a key the actor's own document lists (signer-gate.ts) and queues
// plain activities itself (accept.ts); Fedify verifies the rest (LD signatures, object proofs)
// and that the signer owns the actor's key, answering 401 otherwise, then queues the activity
// on the durable job queue; the listeners below run from there. Each one is thin: it finds the sender (senderOf: origin,
// domain block, suspension), acts once per activity (once.ts: its id and body) and calls a
// service. Every activity dropped on the way is logged with the reason.
// Every listener is the same for both inboxes: what an activity does never depends on the
// inbox it came through, so a delivery to both is one action.

import type { Federation } from "@fedify/fedify";
import {
  Accept,
  type Activity,
  Announce,
  Block,
  Create,
  Delete,
  EmojiReact,
  Flag,
  Follow,
  Like,
  Move,
  QuoteRequest,
  Reject,
  Undo,
  Update,
} from "@fedify/vocab";
import { getLogger } from "@logtape/logtape";
import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../../services/context.ts";
import { instanceActorIdentifier } from "../instance-actor.ts";
import { acceptedSigner } from "./accept.ts";
import { activityKey } from "./activity-key.ts";
import { onBlock } from "./block.ts";
import { onFlag } from "./flag.ts";
import { onAccept, onFollow, onReject } from "./follows.ts";
import { onUnverifiedActivity } from "./gone-actor.ts";
import { onAnnounce, onReaction } from "./interactions.ts";
import { onMove } from "./move.ts";
import { handledHere, once } from "./once.ts";
import { createAhead, onCreate, onDelete, onUpdate } from "./posts.ts";
import { onQuoteAnswer, onQuoteRequest } from "./quotes.ts";
import { type InboxCtx, type SenderOptions, senderOf } from "./sender.ts";
import { onUndo } from "./undo.ts";

const logger = getLogger(["wren", "federation", "inbox"]);

type Handler<A extends Activity, P> = (
  fctx: InboxCtx,
  activity: A,
  sender: Account,
  ahead: P,
) => Promise<void>;

/**
 * `ahead`: a read the handler begins with, started before the once-guard so that both round
 * trips run at once (ADR 0066); only reads whose answer the handler checks again under a lock.
 */
function listener<A extends Activity, P = undefined>(
  handler: Handler<A, P>,
  options: SenderOptions = {},
  ahead?: (fctx: InboxCtx, activity: A) => P,
) {
  return async (fctx: InboxCtx, activity: A): Promise<void> => {
    // Before any getter fetches an embedded object (the digest is of the activity as sent).
    const key = await activityKey(activity);
    const type = activity.constructor.name;
    const id = activity.id?.href;
    // Accepted by accept.ts: the parsed actor must be the one whose signature was verified.
    const signer = acceptedSigner();
    if (signer !== undefined && activity.actorId?.href !== signer) {
      logger.warn("Dropped {type} {id}: its actor {actor} is not its signer {signer}", {
        type,
        id,
        actor: activity.actorId?.href,
        signer,
      });
      return;
    }
    const sender = await senderOf(fctx, activity, options);
    if (!sender) {
      logger.info("Dropped {type} {id}: its actor is refused, unknown or unreachable", {
        type,
        id,
        actor: activity.actorId?.href,
      });
      return;
    }
    // Not for a copy this process already handles: it would be read for nothing.
    const read = (handledHere(fctx.data, key) ? undefined : ahead?.(fctx, activity)) as P;
    const acted = await once(fctx.data, key, () => handler(fctx, activity, sender, read));
    if (!acted) {
      logger.info("Dropped {type} {id}: this very activity (same id and body) was handled", {
        type,
        id,
        digest: key?.digest,
      });
    }
  };
}

export function registerInbox(federation: Federation<ServiceContext>): void {
  federation
    // An activity is one action whichever inbox it reached (shared and personal deliveries of
    // the same activity count once): once.ts, keyed on the id and the body. Fedify's own
    // idempotency (`withIdempotency`) keys on the id alone and is turned off in kv.ts.
    .setInboxListeners("/users/{identifier}/inbox", "/inbox")
    // Fetches made for the shared inbox (signature keys, objects) are signed by the instance
    // actor, as servers with authorized fetch require.
    .setSharedKeyDispatcher((fctx) => ({ identifier: instanceActorIdentifier(fctx.data.settings) }))
    .on(Follow, listener(onFollow))
    // An Accept or Reject answers a follow, or one of our QuoteRequests (inbox/quotes.ts).
    .on(
      Accept,
      listener(async (fctx, accept, sender) => {
        if (!(await onQuoteAnswer(fctx, accept, sender, true)))
          await onAccept(fctx, accept, sender);
      }),
    )
    .on(
      Reject,
      listener(async (fctx, reject, sender) => {
        if (!(await onQuoteAnswer(fctx, reject, sender, false)))
          await onReject(fctx, reject, sender);
      }),
    )
    .on(QuoteRequest, listener(onQuoteRequest))
    // An Undo or Delete from an actor we never heard of concerns nothing we hold.
    .on(Undo, listener(onUndo, { knownOnly: true }))
    .on(Create, listener(onCreate, {}, createAhead))
    .on(Update, listener(onUpdate))
    .on(Delete, listener(onDelete, { knownOnly: true }))
    .on(Announce, listener(onAnnounce))
    .on(Like, listener(onReaction))
    .on(EmojiReact, listener(onReaction))
    .on(Block, listener(onBlock))
    .on(Move, listener(onMove))
    .on(Flag, listener(onFlag))
    // Only a deleted actor's own Delete gets past an unverifiable signature (gone-actor.ts).
    .onUnverifiedActivity(onUnverifiedActivity)
    // A listener that throws is retried by Fedify's inbox retry policy (its default: a new task
    // after 1 s × 2^attempt, doubled at most by jitter, 10 attempts, then given up and logged);
    // the sender was answered 202 long before, so nothing of this reaches it. Storage failures
    // must therefore reach this point rather than be taken for bad remote input (storage/failure.ts).
    .onError((_fctx, error) => {
      logger.warn("Inbox activity failed: {error}", { error });
    });
}
