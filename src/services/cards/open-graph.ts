// Reads what a page says about itself: OpenGraph (`og:`), Twitter and plain meta tags and the
// <title>. Only text is taken (no embed markup, no scripts); a page that is not HTML at all
// simply yields nothing. Values are trimmed and capped so a hostile page cannot bloat a card.

import { Parser } from "htmlparser2";

export interface PageDetails {
  title: string;
  description: string;
  siteName: string;
  authorName: string;
  image: string | null;
  imageAlt: string;
  language: string | null;
}

const TITLE_MAX = 300;
const DESCRIPTION_MAX = 1000;

function cap(value: string | undefined, max: number): string {
  return (value ?? "").replace(/\s+/g, " ").trim().slice(0, max);
}

/**
 * The page's text: in the charset its Content-Type names, else the one a `<meta charset>` (or
 * http-equiv) near the top names, else UTF-8; an unknown charset falls back to UTF-8 too.
 */
export function decodePage(body: Uint8Array, charset: string | null): string {
  const head = new TextDecoder("latin1").decode(body.subarray(0, 2048));
  const declared = charset ?? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(declared.toLowerCase()).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

export function parsePageDetails(html: string): PageDetails {
  const meta = new Map<string, string>();
  let title = "";
  let inTitle = false;
  let language: string | null = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "html" && attributes.lang) language = attributes.lang.slice(0, 16);
        if (name === "title") inTitle = true;
        if (name !== "meta") return;
        const key = (attributes.property ?? attributes.name ?? "").toLowerCase();
        const content = attributes.content;
        // The first tag of a name wins, as OpenGraph readers do.
        if (key && content !== undefined && !meta.has(key)) meta.set(key, content);
      },
      ontext(text) {
        if (inTitle && title.length < TITLE_MAX) title += text;
      },
      onclosetag(name) {
        if (name === "title") inTitle = false;
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  const first = (...keys: string[]) => keys.map((k) => meta.get(k)).find((v) => v?.trim());
  return {
    title: cap(first("og:title", "twitter:title") ?? title, TITLE_MAX),
    description: cap(
      first("og:description", "twitter:description", "description"),
      DESCRIPTION_MAX,
    ),
    siteName: cap(first("og:site_name", "application-name"), TITLE_MAX),
    authorName: cap(first("author", "article:author", "twitter:creator"), TITLE_MAX),
    image:
      first("og:image", "og:image:url", "og:image:secure_url", "twitter:image")?.trim() ?? null,
    imageAlt: cap(first("og:image:alt", "twitter:image:alt"), DESCRIPTION_MAX),
    language,
  };
}
