// Emoji reactions to announcements: a unicode emoji or the shortcode of one of this server's
// custom emojis, at most eight different ones per announcement (Mastodon's ReactionValidator).
// Adding a reaction one already gave, changes nothing; removing one never given is a 404.

import { notFound, unprocessable } from "../../domain/errors.ts";
import { isUnicodeEmoji } from "../../domain/unicode-emoji.ts";
import type { ServiceContext } from "../context.ts";
import { signalStreams } from "../streaming/signal.ts";
import { findActiveAnnouncement } from "./find-active.ts";

export const MAX_DISTINCT_REACTIONS = 8;

async function checkName(ctx: ServiceContext, name: string): Promise<void> {
  if (isUnicodeEmoji(name)) return;
  if (await ctx.storage.customEmojis.findByShortcode(name, null)) return;
  throw unprocessable("Validation failed: Name is not a recognized emoji");
}

export async function addReaction(
  ctx: ServiceContext,
  accountId: string,
  announcementId: string,
  name: string,
): Promise<void> {
  const announcement = await findActiveAnnouncement(ctx, announcementId);
  await checkName(ctx, name);
  const { announcementReactions } = ctx.storage;
  // The limit counts names across users: one check-then-write per announcement at a time.
  await ctx.storage.coordination.withLock(`announcement-reactions:${announcement.id}`, async () => {
    const existing = await announcementReactions.listByAnnouncement(announcement.id);
    if (existing.some((r) => r.accountId === accountId && r.name === name)) return;
    const others = new Set(existing.map((r) => r.name).filter((n) => n !== name));
    if (!existing.some((r) => r.name === name) && others.size >= MAX_DISTINCT_REACTIONS) {
      throw unprocessable("Validation failed: Limit of different reactions reached");
    }
    await announcementReactions.put({
      id: ctx.ids.next(),
      announcementId: announcement.id,
      accountId,
      name,
      createdAt: ctx.clock.now().toISOString(),
    });
    await signalStreams(ctx, {
      kind: "announcement.reaction",
      announcementId: announcement.id,
      name,
    });
  });
}

export async function removeReaction(
  ctx: ServiceContext,
  accountId: string,
  announcementId: string,
  name: string,
): Promise<void> {
  const announcement = await findActiveAnnouncement(ctx, announcementId);
  const removed = await ctx.storage.announcementReactions.delete(announcement.id, accountId, name);
  if (!removed) throw notFound();
  await signalStreams(ctx, {
    kind: "announcement.reaction",
    announcementId: announcement.id,
    name,
  });
}
