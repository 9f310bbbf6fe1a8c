// Text helpers of the public pages: custom emojis shown as images inside escaped text or inside
// our own sanitised HTML, and HTML turned back into plain text for <meta> descriptions.

import type { CustomEmoji } from "../../domain/custom-emoji.ts";
import { escapeHtml } from "./html.ts";

/** The image URL of an emoji; the caller records its origin for the CSP. */
export type EmojiUrl = (emoji: CustomEmoji) => string;

function emojiImage(emoji: CustomEmoji, url: string): string {
  const code = escapeHtml(`:${emoji.shortcode}:`);
  return `<img class="emoji" src="${escapeHtml(url)}" alt="${code}" title="${code}" draggable="false">`;
}

function replaceShortcodes(text: string, emojis: readonly CustomEmoji[], urlOf: EmojiUrl): string {
  if (emojis.length === 0) return text;
  const known = new Map(emojis.map((e) => [e.shortcode, e]));
  return text.replace(/:([a-zA-Z0-9_]{2,}):/g, (match, code: string) => {
    const emoji = known.get(code);
    return emoji ? emojiImage(emoji, urlOf(emoji)) : match;
  });
}

/** Plain text (a display name, a poll option) → escaped HTML with its emojis as images. */
export function emojifyText(text: string, emojis: readonly CustomEmoji[], urlOf: EmojiUrl): string {
  return replaceShortcodes(escapeHtml(text), emojis, urlOf);
}

/**
 * Our sanitised HTML (a bio, a status) with its emojis as images. Only text between tags is
 * touched, so a shortcode inside an attribute (a link's href) never opens a tag there.
 */
export function emojifyHtml(html: string, emojis: readonly CustomEmoji[], urlOf: EmojiUrl): string {
  if (emojis.length === 0) return html;
  return html
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith("<") ? part : replaceShortcodes(part, emojis, urlOf)))
    .join("");
}

// Shared with the command line's report listing, hence in the domain.
export { htmlToText } from "../../domain/text/html.ts";

/** At most `max` characters, cut at a word boundary when one is near, with an ellipsis. */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}
