// Which link of a status gets a card: the first http(s) link of its HTML that is not a mention
// or hashtag (microformats `rel="tag"`, `u-url`/`h-card`, or the mention/hashtag classes) and
// does not point at this instance, as Mastodon chooses.

import { Parser } from "htmlparser2";

const SKIPPED_CLASS = /(^|\s)(u-url|h-card|mention|hashtag)(\s|$)/;

/** An `<a` tag opening, in any case: HTML without one has no link, and needs no parse. */
const ANCHOR = /<a[\s>/]/i;

export function firstCardLink(contentHtml: string, publicUrl: string): string | null {
  // Most statuses have no link: each post's card listener asks, and a parse costs far more.
  if (!ANCHOR.test(contentHtml)) return null;
  const local = new URL(publicUrl).host;
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
