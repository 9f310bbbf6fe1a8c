/** CustomEmoji, from Mastodon's documentation (entities/CustomEmoji.md). */
import { boolean, nullable, object, string, uri } from "../json-schema.ts";

export const CustomEmoji = object(
  { shortcode: string, url: uri, static_url: uri, visible_in_picker: boolean },
  { category: nullable(string) },
  "A custom emoji usable in text as :shortcode:",
);
