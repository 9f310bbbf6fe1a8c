// Reads shared by the listeners of one event. A post's listeners each wanted the author's
// followers (notifications for those who asked to hear of the author's posts, the federation
// outbox for the remote ones): the same pages read twice, a statement each on PostgreSQL, for
// every post. The first listener of an event to ask reads them; the others of the same event get
// that read. Kept per event object (the bus hands the same object to every listener of a run,
// services/events.ts), so nothing outlives the event: a later event, or a retry of a listener
// that failed (a new object, from its record), reads afresh. The listeners of one run follow
// each other within moments, so sharing the read is reading once at the first listener's time.

import type { DomainEvent } from "../domain/events.ts";
import type { Follow } from "../domain/relations.ts";
import type { ServiceContext } from "./context.ts";
import { collectPages } from "./paging.ts";

const followsByEvent = new WeakMap<DomainEvent, Map<string, Promise<Follow[]>>>();

/** Every follow of `accountId`, newest first, read once for all of `event`'s listeners. */
export function followsToDuring(
  ctx: ServiceContext,
  event: DomainEvent,
  accountId: string,
): Promise<Follow[]> {
  let reads = followsByEvent.get(event);
  if (!reads) {
    reads = new Map();
    followsByEvent.set(event, reads);
  }
  let follows = reads.get(accountId);
  if (!follows) {
    follows = collectPages((page) => ctx.storage.follows.listTo(accountId, page));
    // A failed read is not shared: the next listener (or the retry) reads again.
    follows.catch(() => reads.delete(accountId));
    reads.set(accountId, follows);
  }
  return follows;
}
