// An admin removes an announcement, with its reactions and who had read it.

import type { Announcement } from "../../domain/announcement.ts";
import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { signalStreams } from "../streaming/signal.ts";

const PAGE = 200;

export async function deleteAnnouncement(ctx: ServiceContext, id: string): Promise<Announcement> {
  const { storage } = ctx;
  const announcement = await storage.announcements.get(id);
  if (!announcement) throw notFound();
  // The record goes first: once it is gone nobody can react to or dismiss it, so the cleanup
  // below cannot race with new rows.
  await storage.announcements.delete(id);
  await signalStreams(ctx, { kind: "announcement.delete", announcementId: id });
  await storage.announcementReactions.deleteByAnnouncement(id);
  for (;;) {
    const batch = await storage.announcementDismissals.listTo(id, { limit: PAGE });
    if (batch.length === 0) break;
    await Promise.all(
      batch.map((edge) => storage.announcementDismissals.delete(edge.accountId, id)),
    );
  }
  return announcement;
}
