// The text of a local status → what clients and peers receive, and the facts drawn from it:
// HTML in Mastodon's markup (paragraphs, `<br />`, shortened links, h-card mentions, hashtag
// links), the mentioned accounts and tags, and the length as Mastodon counts it.

import { findEntities, type TextEntity } from "./entities.ts";
import { normalizeTag } from "./hashtags.ts";
import { escapeHtml } from "./html.ts";
import { linkHtml } from "./links.ts";
import { normalizeNewlines } from "./plain-text.ts";

/** Mastodon counts every URL as this many characters, whatever its length. */
export const CHARACTERS_PER_URL = 23;

/** Links in statuses carry Mastodon's status `rel`. */
const STATUS_LINK_REL = "nofollow noopener";

/** A mention that resolved to a known account. */
export interface ResolvedMention {
  /** The profile page the mention links to. */
  url: string;
  /** What follows `@` in the link: the username, or `user@domain` where it would be ambiguous. */
  display: string;
}

export interface StatusMarkupOptions {
  /**
   * The account a mention names, or null when unknown (the mention then stays plain text).
   * Keys are `acct` values as typed after `@` (`user` or `user@domain`).
   */
  mentions: ReadonlyMap<string, ResolvedMention>;
  /** The public URL of a hashtag's page. */
  tagUrl(name: string): string;
}

/** The form a status's text is stored and measured in: LF line endings, trimmed. */
export function normalizeStatusText(text: string): string {
  return normalizeNewlines(text).trim();
}

function entityHtml(text: string, entity: TextEntity, options: StatusMarkupOptions): string {
  switch (entity.kind) {
    case "url":
      return linkHtml(entity.url, { rel: STATUS_LINK_REL });
    case "hashtag":
      return `<a href="${escapeHtml(options.tagUrl(entity.name))}" class="mention hashtag" rel="tag">#<span>${escapeHtml(entity.name)}</span></a>`;
    case "mention": {
      const found = options.mentions.get(entity.acct);
      if (!found) return escapeHtml(text.slice(entity.start, entity.end));
      return `<span class="h-card" translate="no"><a href="${escapeHtml(found.url)}" class="u-url mention">@<span>${escapeHtml(found.display)}</span></a></span>`;
    }
  }
}

function inlineHtml(text: string, options: StatusMarkupOptions): string {
  let html = "";
  let at = 0;
  for (const entity of findEntities(text)) {
    html += escapeHtml(text.slice(at, entity.start)) + entityHtml(text, entity, options);
    at = entity.end;
  }
  return html + escapeHtml(text.slice(at));
}

/**
 * Status text → HTML: blank lines separate `<p>` paragraphs, single newlines become `<br />`
 * (Rails' simple_format, which Mastodon uses). Empty text gives an empty string.
 */
export function statusTextToHtml(text: string, options: StatusMarkupOptions): string {
  const normalized = normalizeStatusText(text);
  if (normalized === "") return "";
  return normalized
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${inlineHtml(paragraph, options).replace(/\n/g, "<br />")}</p>`)
    .join("");
}

/** Each distinct `user` / `user@domain` mentioned, in order of first appearance. */
export function extractMentions(
  text: string,
): { acct: string; username: string; domain: string | null }[] {
  const seen = new Set<string>();
  const out: { acct: string; username: string; domain: string | null }[] = [];
  for (const entity of findEntities(text)) {
    if (entity.kind !== "mention") continue;
    const key = entity.acct.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ acct: entity.acct, username: entity.username, domain: entity.domain });
  }
  return out;
}

/** The distinct tags of the text, normalised (lowercase), in order of first appearance. */
export function extractTags(text: string): string[] {
  const names = findEntities(text).flatMap((e) =>
    e.kind === "hashtag" ? [normalizeTag(e.name)] : [],
  );
  return [...new Set(names)];
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Printable ASCII and newlines: one character is one grapheme (only CR LF would pair up). */
const SIMPLE_TEXT = /^[\n\x20-\x7e]*$/;

function graphemeLength(text: string): number {
  if (SIMPLE_TEXT.test(text)) return text.length;
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

/**
 * Length as Mastodon's StatusLengthValidator measures it: the spoiler text plus the text, in
 * user-perceived characters, each URL counting 23 and each mention only its `@username` part.
 */
export function countStatusCharacters(text: string, spoilerText = ""): number {
  const body = normalizeStatusText(text);
  let length = graphemeLength(spoilerText.trim());
  let at = 0;
  for (const entity of findEntities(body)) {
    length += graphemeLength(body.slice(at, entity.start));
    if (entity.kind === "url") length += CHARACTERS_PER_URL;
    else if (entity.kind === "mention") length += graphemeLength(`@${entity.username}`);
    else length += graphemeLength(body.slice(entity.start, entity.end));
    at = entity.end;
  }
  return length + graphemeLength(body.slice(at));
}
