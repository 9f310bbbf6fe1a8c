// An admin changes an announcement: the fields given replace the old ones (a time range is
// replaced as a whole when either end is given); readers and reactions are kept.

import type { Announcement } from "../../domain/announcement.ts";
import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { signalStreams } from "../streaming/signal.ts";
import { renderAnnouncementText } from "./announcement-text.ts";
import { checkSchedule } from "./schedule.ts";

export interface AnnouncementChanges {
  text?: string | undefined;
  startsAt?: string | null | undefined;
  endsAt?: string | null | undefined;
  allDay?: boolean | undefined;
}

export async function updateAnnouncement(
  ctx: ServiceContext,
  id: string,
  changes: AnnouncementChanges,
): Promise<Announcement> {
  const existing = await ctx.storage.announcements.get(id);
  if (!existing) throw notFound();
  const schedule = checkSchedule({
    startsAt: changes.startsAt !== undefined ? changes.startsAt : existing.startsAt,
    endsAt: changes.endsAt !== undefined ? changes.endsAt : existing.endsAt,
    allDay: changes.allDay ?? existing.allDay,
  });
  const rendered =
    changes.text === undefined ? existing : await renderAnnouncementText(ctx, changes.text);
  const updated: Announcement = {
    ...existing,
    text: rendered.text,
    contentHtml: rendered.contentHtml,
    mentionIds: rendered.mentionIds,
    tags: rendered.tags,
    ...schedule,
    updatedAt: ctx.clock.now().toISOString(),
  };
  await ctx.storage.announcements.put(updated);
  await signalStreams(ctx, { kind: "announcement", announcementId: updated.id });
  return updated;
}
