// An admin publishes an announcement (from the command line or the admin API). It is published
// at once, as Mastodon does for announcements that are not scheduled.

import type { Announcement } from "../../domain/announcement.ts";
import type { ServiceContext } from "../context.ts";
import { signalStreams } from "../streaming/signal.ts";
import { renderAnnouncementText } from "./announcement-text.ts";
import { checkSchedule, type ScheduleInput } from "./schedule.ts";

export interface AnnouncementInput extends ScheduleInput {
  text: string;
}

export async function createAnnouncement(
  ctx: ServiceContext,
  input: AnnouncementInput,
): Promise<Announcement> {
  const schedule = checkSchedule(input);
  const rendered = await renderAnnouncementText(ctx, input.text);
  const now = ctx.clock.now().toISOString();
  const announcement: Announcement = {
    id: ctx.ids.next(),
    text: rendered.text,
    contentHtml: rendered.contentHtml,
    startsAt: schedule.startsAt,
    endsAt: schedule.endsAt,
    allDay: schedule.allDay,
    publishedAt: now,
    updatedAt: now,
    mentionIds: rendered.mentionIds,
    tags: rendered.tags,
  };
  await ctx.storage.announcements.put(announcement);
  await signalStreams(ctx, { kind: "announcement", announcementId: announcement.id });
  return announcement;
}
