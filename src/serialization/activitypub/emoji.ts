// CustomEmoji → the `Emoji` tag Mastodon puts on actors and notes so peers can show `:code:`.

import { Emoji, Image } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { type CustomEmoji, emojiImageUrl } from "../../domain/custom-emoji.ts";
import { type ApUrls, mediaTypeOfName } from "./urls.ts";

export function toEmoji(emoji: CustomEmoji, urls: ApUrls): Emoji {
  const url = emojiImageUrl(emoji, urls.fileUrl);
  return new Emoji({
    id: new URL(`${urls.publicUrl}/emojis/${emoji.id}`),
    name: `:${emoji.shortcode}:`,
    updated: Temporal.Instant.from(emoji.updatedAt),
    icon: new Image({ url: new URL(url), mediaType: mediaTypeOfName(url) }),
  });
}
