// Links in plain text, rendered the way Mastodon renders them so that clients which style or
// shorten links (the `invisible` and `ellipsis` classes) show them as they do Mastodon's:
// the scheme and `www.` are hidden, and a long remainder is cut after 30 characters.

import * as linkify from "linkifyjs";
import { escapeHtml } from "./html.ts";

export interface FoundLink {
  start: number;
  end: number;
  url: string;
}

const DISPLAY_LIMIT = 30;
const SCHEME = /^https?:\/\//i;
const ANY_SCHEME = /https?:\/\//i;

/** http(s) URLs in `text`, with their positions. Bare domains are not links (as in Mastodon). */
export function findLinks(text: string): FoundLink[] {
  // Only URLs with their scheme count, so text without one has none: skip the tokenizer, the
  // largest cost of composing an ordinary post.
  if (!ANY_SCHEME.test(text)) return [];
  return linkify
    .find(text, "url")
    .filter((match) => SCHEME.test(match.value))
    .map((match) => ({ start: match.start, end: match.end, url: match.value }));
}

/**
 * The `<a>` element for one URL. `rel` gains `me` in profile fields (rel=me verification);
 * statuses pass their own `rel`.
 */
export function linkHtml(url: string, options: { me?: boolean; rel?: string } = {}): string {
  const prefix = /^https?:\/\/(?:www\.)?/i.exec(url)?.[0] ?? "";
  const rest = url.slice(prefix.length);
  const shown =
    rest.length > DISPLAY_LIMIT
      ? `<span class="ellipsis">${escapeHtml(rest.slice(0, DISPLAY_LIMIT))}</span><span class="invisible">${escapeHtml(rest.slice(DISPLAY_LIMIT))}</span>`
      : `<span class="">${escapeHtml(rest)}</span><span class="invisible"></span>`;
  const rel =
    options.rel ??
    (options.me ? "me nofollow noopener noreferrer" : "nofollow noopener noreferrer");
  return `<a href="${escapeHtml(url)}" target="_blank" rel="${rel}" translate="no"><span class="invisible">${escapeHtml(prefix)}</span>${shown}</a>`;
}

/** Escapes `text` and turns its URLs into links; no paragraphs or line breaks. */
export function linkifyText(text: string, options: { me?: boolean } = {}): string {
  let html = "";
  let at = 0;
  for (const link of findLinks(text)) {
    html += escapeHtml(text.slice(at, link.start)) + linkHtml(link.url, options);
    at = link.end;
  }
  return html + escapeHtml(text.slice(at));
}
