// Announcements as users see them (the active ones, in Mastodon's chronological order) and as
// the operator sees them (all of them, newest first).

import type { Announcement } from "../../domain/announcement.ts";
import type { ServiceContext } from "../context.ts";
import { compareChronologically, isActive } from "./schedule.ts";

export async function listActiveAnnouncements(ctx: ServiceContext): Promise<Announcement[]> {
  const now = ctx.clock.now();
  const all = await ctx.storage.announcements.list();
  return all.filter((a) => isActive(a, now)).sort(compareChronologically);
}

export async function listAllAnnouncements(ctx: ServiceContext): Promise<Announcement[]> {
  return ctx.storage.announcements.list();
}
