// After a crash, an event recorded before its write (EventBus.intend) may announce a write that
// never happened. Each event type that is recorded that way says here how to tell, and brings the
// event's record up to date from storage, so that listeners act on what is stored now.

import type { DomainEvent } from "../domain/events.ts";
import type { Storage } from "../storage/ports.ts";

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
    default:
      // Recorded after their write: they happened.
      return event;
  }
}
