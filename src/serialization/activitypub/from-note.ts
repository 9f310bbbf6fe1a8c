// A remote post (Note, Question; Article, Page, Image, Video, Audio, Event shown the way
// Mastodon converts them) → the draft of the status that stands for it: content sanitised,
// visibility from the addressing, mentions, hashtags, custom emojis, attachments linked where
// they live, and a Question's poll. Pure: nothing is fetched.

import {
  type Object as APObject,
  Article,
  Audio,
  Document,
  Event,
  Hashtag,
  Image,
  Link,
  Mention,
  Note,
  Page,
  PUBLIC_COLLECTION,
  Question,
  Video,
} from "@fedify/vocab";
import type { Visibility } from "../../domain/account.ts";
import type { MediaMeta, MediaType } from "../../domain/media.ts";
import { normalizeTag } from "../../domain/text/hashtags.ts";
import { escapeHtml } from "../../domain/text/html.ts";
import type {
  RemoteMediaDraft,
  RemotePollDraft,
  RemoteStatusDraft,
} from "../../services/remote/drafts.ts";
import {
  EMBEDDED_ONLY,
  emojisOf,
  httpUrl,
  isoOf,
  linkHref,
  textOf,
  truncate,
} from "./from-common.ts";
import { quoteOf, quotePolicyOf } from "./from-quote.ts";
import { sanitizeRemoteHtml } from "./sanitize-html.ts";

const MAX_CONTENT = 200_000;
const MAX_SPOILER = 10_000;
const MAX_MEDIA = 16;
const MAX_DESCRIPTION = 1500;
const MAX_MENTIONS = 100;
const MAX_TAGS = 50;
const MAX_POLL_OPTIONS = 64;
const MAX_OPTION_TITLE = 1000;

/** Types shown with their own content. */
export function isPostType(object: unknown): object is Note | Question {
  return object instanceof Note || object instanceof Question;
}

/** Types Mastodon shows as a title and a link (its CONVERTED_TYPES). */
export function isConvertedType(object: unknown): object is APObject {
  return (
    object instanceof Article ||
    object instanceof Page ||
    object instanceof Image ||
    object instanceof Video ||
    object instanceof Audio ||
    object instanceof Event
  );
}

/** Whether a vocabulary object can become a status. */
export function isStatusObject(object: unknown): object is APObject {
  return isPostType(object) || isConvertedType(object);
}

export interface NoteContext {
  /** The author's followers collection, to tell followers-only posts from direct ones. */
  followersUri: string | null;
  /** The author's actor id (quote policies may name the author alone). */
  authorUri?: string | null;
}

function ids(list: readonly URL[]): string[] {
  return list.map((u) => u.href);
}

/** Mastodon's StatusParser#visibility. */
export function visibilityOf(object: APObject, followersUri: string | null): Visibility {
  const to = ids(object.toIds);
  const cc = ids(object.ccIds);
  const isPublic = (id: string) =>
    id === PUBLIC_COLLECTION.href || id === "as:Public" || id === "Public";
  if (to.some(isPublic)) return "public";
  if (cc.some(isPublic)) return "unlisted";
  if (followersUri !== null && to.includes(followersUri)) return "private";
  return "direct";
}

function firstText(values: readonly unknown[]): string {
  for (const value of values) {
    const text = textOf(value);
    if (text !== "") return text;
  }
  return "";
}

/** The language of the first contentMap (then nameMap, summaryMap) entry. */
function languageOf(object: APObject): string | null {
  for (const values of [object.contents, object.names, object.summaries]) {
    for (const value of values) {
      if (typeof value === "object" && value !== null && "locale" in value) {
        const tag = (value.locale as Intl.Locale).baseName;
        // "und" (undetermined, Pleroma's default @language) says nothing.
        if (tag !== "und" && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(tag)) return tag;
      }
    }
  }
  return null;
}

/** The page for people: a `text/html` Link if there is one, else the first URL. */
function pageUrl(object: APObject): string | null {
  const urls = object.urls;
  const html = urls.find((u) => u instanceof Link && u.mediaType === "text/html");
  return linkHref(html ?? urls[0] ?? null);
}

/** Title, summary and a link, as Mastodon shows objects of its converted types. */
function convertedContent(object: APObject, url: string): string {
  const parts: string[] = [];
  const title = firstText([object.name, ...object.names]);
  if (title !== "") parts.push(`<h2>${escapeHtml(title)}</h2>`);
  const summary = firstText([object.summary, ...object.summaries]);
  if (summary !== "") parts.push(summary);
  parts.push(`<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`);
  return parts.join("\n\n");
}

/** A quote (quoteUrl, _misskey_quote, quoteUri) shown as Mastodon did before native quotes. */
function withQuote(html: string, object: APObject): string {
  const quote = "quoteUrl" in object ? httpUrl((object as Note).quoteUrl) : null;
  // Mastodon and Wren put their own fallback link in a `quote-inline` paragraph.
  if (quote === null || html.includes(quote) || html.includes("quote-inline")) return html;
  const link = `<a href="${escapeHtml(quote)}">${escapeHtml(quote)}</a>`;
  return `${html}<p class="quote-inline">RE: ${link}</p>`;
}

/**
 * The JSON an attachment was parsed from, for what Fedify does not model (blurhash,
 * focalPoint): Fedify keeps the source JSON of a parsed top-level object (not of embedded ones),
 * so this is found by URL among the post's `attachment` entries when it is there.
 */
function rawAttachments(object: APObject): Map<string, Record<string, unknown>> {
  const raw = Reflect.get(object, "_cachedJsonLd") as unknown;
  const out = new Map<string, Record<string, unknown>>();
  if (raw === null || typeof raw !== "object") return out;
  const list = Reflect.get(raw, "attachment") as unknown;
  for (const entry of Array.isArray(list) ? list : [list]) {
    if (entry === null || typeof entry !== "object") continue;
    const url = Reflect.get(entry, "url") as unknown;
    const href = typeof url === "string" ? url : (url as { href?: unknown } | null)?.href;
    if (typeof href === "string") out.set(href, entry as Record<string, unknown>);
  }
  return out;
}

function mediaTypeOf(object: APObject, contentType: string | null): MediaType {
  const major = contentType?.split("/")[0];
  if (major === "image") return "image";
  if (major === "video") return "video";
  if (major === "audio") return "audio";
  if (object instanceof Image) return "image";
  if (object instanceof Video) return "video";
  if (object instanceof Audio) return "audio";
  return "unknown";
}

function metaOf(width: number | null, height: number | null): MediaMeta | null {
  if (!width || !height || width <= 0 || height <= 0) return null;
  return {
    original: { width, height, size: `${width}x${height}`, aspect: width / height },
  };
}

function focusOf(value: unknown): { x: number; y: number } | null {
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [x, y] = value as unknown[];
  const ok = (n: unknown) => typeof n === "number" && n >= -1 && n <= 1;
  return ok(x) && ok(y) ? { x: x as number, y: y as number } : null;
}

function blurhashOf(value: unknown): string | null {
  return typeof value === "string" && /^[0-9A-Za-z#$%*+,\-.:;=?@[\]^_{|}~]{6,100}$/.test(value)
    ? value
    : null;
}

async function mediaOf(object: APObject): Promise<RemoteMediaDraft[]> {
  const out: RemoteMediaDraft[] = [];
  const raw = rawAttachments(object);
  for await (const item of object.getAttachments(EMBEDDED_ONLY)) {
    if (out.length >= MAX_MEDIA) break;
    // Image, Video and Audio are Documents too.
    if (!(item instanceof Document)) continue;
    const doc = item;
    const url = linkHref(doc.url);
    if (url === null) continue;
    const contentType = doc.mediaType ?? null;
    const description = truncate(textOf(doc.name), MAX_DESCRIPTION);
    const source = raw.get(url);
    out.push({
      type: mediaTypeOf(doc, contentType),
      url,
      contentType,
      description: description === "" ? null : description,
      blurhash: blurhashOf(source?.blurhash),
      meta: metaOf(doc.width, doc.height),
      focus: focusOf(source?.focalPoint),
    });
  }
  return out;
}

async function tagsOf(object: APObject): Promise<{ mentionUris: string[]; tags: string[] }> {
  const mentions = new Set<string>();
  const tags = new Set<string>();
  for await (const tag of object.getTags(EMBEDDED_ONLY)) {
    if (tag instanceof Mention) {
      const href = httpUrl(tag.href);
      if (href && mentions.size < MAX_MENTIONS) mentions.add(href);
    } else if (tag instanceof Hashtag) {
      const name = normalizeTag(textOf(tag.name).replace(/^#/, ""));
      if (/^[\p{L}\p{M}\p{Nd}_\u00B7\u30FB\u200C]{1,100}$/u.test(name) && tags.size < MAX_TAGS) {
        tags.add(name);
      }
    }
  }
  return { mentionUris: [...mentions], tags: [...tags] };
}

async function votesOf(option: APObject): Promise<number> {
  const replies = await option.getReplies(EMBEDDED_ONLY);
  const count = replies?.totalItems ?? 0;
  return Number.isSafeInteger(count) && count > 0 ? count : 0;
}

async function optionsOf(source: AsyncIterable<APObject>): Promise<RemotePollDraft["options"]> {
  const options: RemotePollDraft["options"] = [];
  for await (const option of source) {
    if (options.length >= MAX_POLL_OPTIONS) break;
    const title = truncate(textOf(option.name), MAX_OPTION_TITLE);
    if (title !== "") options.push({ title, votesCount: await votesOf(option) });
  }
  return options;
}

function countOrNull(value: number | null): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : null;
}

/** A Question's poll: its options with their counts, single or multiple choice, deadline. */
export async function pollOf(question: Question): Promise<RemotePollDraft | null> {
  // Options are usually embedded without ids, so the kind is known by which list has items.
  const inclusive = await optionsOf(question.getInclusiveOptions(EMBEDDED_ONLY));
  const options =
    inclusive.length > 0 ? inclusive : await optionsOf(question.getExclusiveOptions(EMBEDDED_ONLY));
  if (options.length === 0) return null;
  const closed = question.closed;
  const closedAt = typeof closed === "object" && closed !== null ? isoOf(closed) : null;
  return {
    options,
    multiple: inclusive.length > 0,
    expiresAt: isoOf(question.endTime) ?? closedAt,
    closed: closed === true || closedAt !== null,
    votersCount: countOrNull(question.voters),
  };
}

/** The draft of the status, or null for an object that cannot be one. */
export async function noteToDraft(
  object: APObject,
  context: NoteContext,
): Promise<RemoteStatusDraft | null> {
  const uri = httpUrl(object.id);
  if (uri === null || !isStatusObject(object)) return null;
  const url = pageUrl(object) ?? uri;
  const converted = !isPostType(object);
  const rawContent = converted
    ? convertedContent(object, url)
    : firstText([object.content, ...object.contents]);
  // Cut before sanitising (which closes whatever the cut left open), so a huge document costs
  // no more than a long post.
  const contentHtml = sanitizeRemoteHtml(withQuote(truncate(rawContent, MAX_CONTENT), object));
  const spoilerText = converted
    ? ""
    : truncate(firstText([object.summary, ...object.summaries]), MAX_SPOILER);
  const [media, { mentionUris, tags }, emojis, poll] = await Promise.all([
    mediaOf(object),
    tagsOf(object),
    emojisOf(object),
    object instanceof Question ? pollOf(object) : null,
  ]);
  return {
    uri,
    url,
    contentHtml,
    spoilerText,
    sensitive: object.sensitive === true,
    language: languageOf(object),
    visibility: visibilityOf(object, context.followersUri),
    publishedAt: isoOf(object.published),
    updatedAt: isoOf(object.updated),
    inReplyToUri: httpUrl(object.replyTargetId),
    mentionUris,
    tags,
    emojis,
    media,
    poll,
    quote: quoteOf(object),
    quotePolicy: quotePolicyOf(object, context.authorUri ?? null, context.followersUri),
  };
}
