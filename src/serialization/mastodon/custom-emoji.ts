// Mastodon's CustomEmoji entity, the one shape every `emojis` array and the custom_emojis list
// use. Pure: hosted image URLs come from the caller's UrlContext.

import { type CustomEmoji, emojiImageUrl } from "../../domain/custom-emoji.ts";
import type { UrlContext } from "./account.ts";

export interface CustomEmojiJson {
  shortcode: string;
  url: string;
  static_url: string;
  visible_in_picker: boolean;
  category: string | null;
}

export function serializeCustomEmoji(emoji: CustomEmoji, urls: UrlContext): CustomEmojiJson {
  return {
    shortcode: emoji.shortcode,
    url: emojiImageUrl(emoji, urls.fileUrl),
    static_url: emojiImageUrl(emoji, urls.fileUrl, "static"),
    visible_in_picker: emoji.visibleInPicker,
    category: emoji.category,
  };
}

export function serializeCustomEmojis(
  emojis: readonly CustomEmoji[],
  urls: UrlContext,
): CustomEmojiJson[] {
  return emojis.map((emoji) => serializeCustomEmoji(emoji, urls));
}
