// The read side of announcements: each with its mentioned accounts, custom emojis, reactions
// grouped by name (with the viewer's own marked) and whether the viewer has read it. Built for
// the whole list at once.

import type { Account } from "../domain/account.ts";
import type { Announcement, AnnouncementReaction } from "../domain/announcement.ts";
import type { CustomEmoji } from "../domain/custom-emoji.ts";
import { compareIds } from "../domain/ids.ts";
import { isUnicodeEmoji } from "../domain/unicode-emoji.ts";
import type { ServiceContext } from "../services/context.ts";
import { resolveEmojis } from "./custom-emojis.ts";

export interface ReactionView {
  name: string;
  count: number;
  /** Whether the viewer gave it; null without a viewer. */
  me: boolean | null;
  /** The custom emoji a shortcode reaction names, while it exists. */
  emoji: CustomEmoji | null;
}

export interface AnnouncementView {
  announcement: Announcement;
  /** Whether the viewer dismissed it; null without a viewer. */
  read: boolean | null;
  mentions: Account[];
  emojis: CustomEmoji[];
  reactions: ReactionView[];
}

/** Reactions grouped by name, the earliest given first (Mastodon orders by MIN(created_at)). */
function groupReactions(
  reactions: readonly AnnouncementReaction[],
  viewerId: string | null,
  emojis: ReadonlyMap<string, CustomEmoji>,
): ReactionView[] {
  const sorted = [...reactions].sort((a, b) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : compareIds(a.id, b.id),
  );
  const groups = new Map<string, ReactionView>();
  for (const r of sorted) {
    let group = groups.get(r.name);
    if (!group) {
      group = {
        name: r.name,
        count: 0,
        me: viewerId === null ? null : false,
        emoji: emojis.get(r.name) ?? null,
      };
      groups.set(r.name, group);
    }
    group.count += 1;
    if (viewerId !== null && r.accountId === viewerId) group.me = true;
  }
  return [...groups.values()];
}

export async function loadAnnouncementViews(
  ctx: ServiceContext,
  announcements: readonly Announcement[],
  viewerId: string | null,
): Promise<AnnouncementView[]> {
  const { storage } = ctx;
  const ids = announcements.map((a) => a.id);
  const mentionIds = [...new Set(announcements.flatMap((a) => a.mentionIds))];
  const [dismissed, accounts, textEmojis, reactionLists] = await Promise.all([
    viewerId === null ? null : storage.announcementDismissals.findFrom(viewerId, ids),
    storage.accounts.getMany(mentionIds),
    resolveEmojis(
      ctx,
      announcements.map((a) => ({ domain: null, texts: [a.text] })),
    ),
    Promise.all(ids.map((id) => storage.announcementReactions.listByAnnouncement(id))),
  ]);
  const shortcodes = [
    ...new Set(reactionLists.flat().flatMap((r) => (isUnicodeEmoji(r.name) ? [] : [r.name]))),
  ];
  const reactionEmojis =
    shortcodes.length === 0
      ? new Map<string, CustomEmoji>()
      : await storage.customEmojis.findByShortcodes(shortcodes, null);

  return announcements.map((announcement, i) => ({
    announcement,
    read: dismissed === null ? null : dismissed.has(announcement.id),
    mentions: announcement.mentionIds.flatMap((id) => {
      const account = accounts.get(id);
      return account ? [account] : [];
    }),
    emojis: textEmojis[i] ?? [],
    reactions: groupReactions(reactionLists[i] ?? [], viewerId, reactionEmojis),
  }));
}
