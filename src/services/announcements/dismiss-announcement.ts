// A user marks an announcement as read. Doing it again changes nothing.

import type { ServiceContext } from "../context.ts";
import { findActiveAnnouncement } from "./find-active.ts";

export async function dismissAnnouncement(
  ctx: ServiceContext,
  accountId: string,
  announcementId: string,
): Promise<void> {
  const announcement = await findActiveAnnouncement(ctx, announcementId);
  const { announcementDismissals } = ctx.storage;
  if (await announcementDismissals.get(accountId, announcement.id)) return;
  await announcementDismissals.put({
    id: ctx.ids.next(),
    accountId,
    targetId: announcement.id,
    createdAt: ctx.clock.now().toISOString(),
  });
}
