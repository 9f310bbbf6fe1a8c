// Mastodon's Announcement entity with its Reaction entities. Pure. `read` and each reaction's
// `me` appear only for a signed-in viewer; `url`/`static_url` only on custom emoji reactions.

import type { AnnouncementView, ReactionView } from "../../views/announcement-view.ts";
import type { UrlContext } from "./account.ts";
import { type CustomEmojiJson, serializeCustomEmojis } from "./custom-emoji.ts";
import { type MentionJson, serializeMention } from "./mention.ts";
import { serializeTag, type TagJson } from "./tag.ts";

export interface ReactionJson {
  name: string;
  count: number;
  me?: boolean;
  url?: string;
  static_url?: string;
}

export interface AnnouncementJson {
  id: string;
  content: string;
  starts_at: string | null;
  ends_at: string | null;
  all_day: boolean;
  published_at: string;
  updated_at: string;
  read?: boolean;
  mentions: MentionJson[];
  statuses: { id: string; url: string }[];
  tags: TagJson[];
  emojis: CustomEmojiJson[];
  reactions: ReactionJson[];
}

export function serializeReaction(view: ReactionView, urls: UrlContext): ReactionJson {
  const json: ReactionJson = { name: view.name, count: view.count };
  if (view.me !== null) json.me = view.me;
  if (view.emoji) {
    json.url = urls.fileUrl(view.emoji.imageKey);
    json.static_url = urls.fileUrl(view.emoji.staticKey);
  }
  return json;
}

export function serializeAnnouncement(view: AnnouncementView, urls: UrlContext): AnnouncementJson {
  const { announcement } = view;
  const json: AnnouncementJson = {
    id: announcement.id,
    content: announcement.contentHtml,
    starts_at: announcement.startsAt,
    ends_at: announcement.endsAt,
    all_day: announcement.allDay,
    published_at: announcement.publishedAt,
    updated_at: announcement.updatedAt,
    mentions: view.mentions.map((account) => serializeMention(account)),
    // Linked statuses need Mastodon's status_ids, which only its admin UI sets: none here.
    statuses: [],
    tags: announcement.tags.map((name) => serializeTag(name, urls.publicUrl)),
    emojis: serializeCustomEmojis(view.emojis, urls),
    reactions: view.reactions.map((reaction) => serializeReaction(reaction, urls)),
  };
  if (view.read !== null) json.read = view.read;
  return json;
}
