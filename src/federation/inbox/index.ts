// The personal (`/users/{identifier}/inbox`) and shared (`/inbox`) inboxes. Fedify verifies
// the HTTP signature (or an LD signature / object proof) and that the signer owns the actor's
// key, answering 401 otherwise, then queues the activity on the durable job queue; the
// listeners below run from there. Each one is thin: it finds the sender (senderOf: origin,
// domain block, suspension), acts once per activity id (once.ts) and calls a service.
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
  Reject,
  Undo,
  Update,
} from "@fedify/vocab";
import { getLogger } from "@logtape/logtape";
import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../../services/context.ts";
import { instanceActorIdentifier } from "../instance-actor.ts";
import { onBlock } from "./block.ts";
import { onFlag } from "./flag.ts";
import { onAccept, onFollow, onReject } from "./follows.ts";
import { onUnverifiedActivity } from "./gone-actor.ts";
import { onAnnounce, onReaction } from "./interactions.ts";
import { onMove } from "./move.ts";
import { once } from "./once.ts";
import { onCreate, onDelete, onUpdate } from "./posts.ts";
import { type InboxCtx, type SenderOptions, senderOf } from "./sender.ts";
import { onUndo } from "./undo.ts";

const logger = getLogger(["wren", "federation", "inbox"]);

type Handler<A extends Activity> = (fctx: InboxCtx, activity: A, sender: Account) => Promise<void>;

function listener<A extends Activity>(handler: Handler<A>, options: SenderOptions = {}) {
  return async (fctx: InboxCtx, activity: A): Promise<void> => {
    const sender = await senderOf(fctx, activity, options);
    if (!sender) {
      logger.debug("Ignored {type} {id}: sender refused or unknown", {
        type: activity.constructor.name,
        id: activity.id?.href,
      });
      return;
    }
    await once(fctx.data, activity.id, () => handler(fctx, activity, sender));
  };
}

export function registerInbox(federation: Federation<ServiceContext>): void {
  federation
    .setInboxListeners("/users/{identifier}/inbox", "/inbox")
    // An activity is one action whichever inbox it reached (shared and personal deliveries of
    // the same activity count once).
    .withIdempotency("global")
    // Fetches made for the shared inbox (signature keys, objects) are signed by the instance
    // actor, as servers with authorized fetch require.
    .setSharedKeyDispatcher((fctx) => ({ identifier: instanceActorIdentifier(fctx.data.settings) }))
    .on(Follow, listener(onFollow))
    .on(Accept, listener(onAccept))
    .on(Reject, listener(onReject))
    // An Undo or Delete from an actor we never heard of concerns nothing we hold.
    .on(Undo, listener(onUndo, { knownOnly: true }))
    .on(Create, listener(onCreate))
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
    // A listener that throws is retried by Fedify's inbox retry policy; the sender was answered
    // 202 long before, so nothing of this reaches it.
    .onError((_fctx, error) => {
      logger.warn("Inbox activity failed: {error}", { error });
    });
}
