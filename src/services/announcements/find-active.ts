// The announcement a user acts on (dismiss, react): only one they can see; any other id is the
// same 404 as an unknown one, so a scheduled announcement cannot be probed.

import type { Announcement } from "../../domain/announcement.ts";
import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { isActive } from "./schedule.ts";

export async function findActiveAnnouncement(
  ctx: ServiceContext,
  id: string,
): Promise<Announcement> {
  const announcement = await ctx.storage.announcements.get(id);
  if (!announcement || !isActive(announcement, ctx.clock.now())) throw notFound();
  return announcement;
}
