// Small readers shared by the inbound conversions (from-actor.ts, from-note.ts): plain values
// out of Fedify's vocabulary objects, without ever fetching anything (conversions are pure:
// whatever a document does not embed is simply absent).

import { type Object as APObject, Emoji, type Link } from "@fedify/vocab";
import type { RemoteEmojiDraft } from "../../services/remote/drafts.ts";

/** Document loader for the property getters: refuses, so a getter never goes to the network. */
export async function refuseFetch(url: string): Promise<never> {
  throw new Error(`not embedded: ${url}`);
}

/** Options for Fedify's async getters: embedded values only, errors become null/skipped. */
export const EMBEDDED_ONLY = {
  documentLoader: refuseFetch,
  contextLoader: refuseFetch,
  suppressError: true,
} as const;

/** A string value of a property (a LanguageString is a String), trimmed; "" when absent. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (value instanceof String) return value.toString().trim();
  return "";
}

/** An http(s) URL as a string, or null for anything else (javascript:, data:, relative…). */
export function httpUrl(value: URL | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  try {
    const url = new URL(value.toString());
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** The href of a `url`-like value (a URL or a Link). */
export function linkHref(value: URL | Link | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof URL) return httpUrl(value);
  return httpUrl(value.href);
}

export function isoOf(instant: { toString(): string } | null | undefined): string | null {
  if (!instant) return null;
  const time = Date.parse(instant.toString());
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** Host of an id with its port, lower case (`host:port` is its own domain, as in WebFinger). */
export function hostOf(id: URL): string {
  return id.host.toLowerCase();
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max);
}

const SHORTCODE = /^[a-zA-Z0-9_]{2,}$/;
const MAX_EMOJIS = 100;

/** The custom emojis among an object's tags (`:code:` names with an image). */
export async function emojisOf(object: APObject): Promise<RemoteEmojiDraft[]> {
  const out = new Map<string, RemoteEmojiDraft>();
  for await (const tag of object.getTags(EMBEDDED_ONLY)) {
    if (!(tag instanceof Emoji) || out.size >= MAX_EMOJIS) continue;
    const shortcode = textOf(tag.name).replace(/^:|:$/g, "");
    if (!SHORTCODE.test(shortcode)) continue;
    const icon = await tag.getIcon(EMBEDDED_ONLY);
    const url = icon ? linkHref(icon.url) : null;
    if (url === null) continue;
    out.set(shortcode, { shortcode, url, updatedAt: isoOf(tag.updated) });
  }
  return [...out.values()];
}
