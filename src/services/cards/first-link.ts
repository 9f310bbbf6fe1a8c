// Which link of a status gets a card: the first http(s) link of its HTML that is not a mention
// or hashtag (microformats `rel="tag"`, `u-url`/`h-card`, or the mention/hashtag classes) and
// does not point at this instance, as Mastodon chooses.

import { Parser } from "htmlparser2";

const SKIPPED_CLASS = /(^|\s)(u-url|h-card|mention|hashtag)(\s|$)/;

/** An `<a` tag opening, in any case: HTML without one has no link. */
const ANCHOR = /<a[\s>/]/i;
/** Whatever may be an href attribute's value (and more: text that reads `href=` too). */
const HREF = /\bhref\s*=\s*["']?([^"'\s>]*)/gi;

/**
 * True when the HTML surely has no card link, without parsing it: no anchor at all, or every
 * href (and every text that merely looks like one) literally on this instance, as hashtags and
 * local mentions are. Anything else, entities included, goes to the parse.
 */
function surelyNone(contentHtml: string, localPrefix: string): boolean {
  if (!ANCHOR.test(contentHtml)) return true;
  for (const [, value] of contentHtml.matchAll(HREF)) {
    if (!value?.toLowerCase().startsWith(localPrefix)) return false;
  }
  return true;
}

export function firstCardLink(contentHtml: string, publicUrl: string): string | null {
  // Each post's card listener asks; most posts have no link or only hashtags and mentions of
  // this instance, and a parse costs far more than the look.
  const local = new URL(publicUrl).host;
  if (surelyNone(contentHtml, `${new URL(publicUrl).origin.toLowerCase()}/`)) return null;
  let found: string | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (found !== null || name !== "a") return;
        const href = attributes.href;
        if (!href) return;
        if ((attributes.rel ?? "").split(/\s+/).includes("tag")) return;
        if (SKIPPED_CLASS.test(attributes.class ?? "")) return;
        let url: URL;
        try {
          url = new URL(href);
        } catch {
          return;
        }
        if (url.protocol !== "http:" && url.protocol !== "https:") return;
        if (url.host === local) return;
        found = url.href;
      },
    },
    { decodeEntities: true },
  );
  parser.write(contentHtml);
  parser.end();
  return found;
}
