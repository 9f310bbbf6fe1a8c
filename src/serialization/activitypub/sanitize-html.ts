// Remote HTML (status content, bios, profile field values) cleaned to Mastodon's allowlist
// (its MASTODON_STRICT sanitizer config): only simple text markup survives, links keep only
// hrefs with known schemes and always open with rel="nofollow noopener" in a new tab, classes
// are reduced to microformats and Mastodon's own (mention, hashtag, invisible, ellipsis,
// quote-inline), and headings become a bold paragraph. Pure: no I/O.

import sanitize, { type Attributes, type IOptions } from "sanitize-html";

/** The schemes Mastodon keeps in link hrefs; any other link is replaced by its text. */
const LINK_SCHEMES = [
  "http",
  "https",
  "dat",
  "dweb",
  "ipfs",
  "ipns",
  "ssb",
  "gopher",
  "xmpp",
  "magnet",
  "gemini",
];

const ALLOWED_TAGS = [
  "p",
  "br",
  "span",
  "a",
  "del",
  "s",
  "pre",
  "blockquote",
  "code",
  "b",
  "strong",
  "u",
  "i",
  "em",
  "ul",
  "ol",
  "li",
  "ruby",
  "rt",
  "rp",
];

// Placeholders that pass the allowlist and are rewritten afterwards: headings become a bold
// paragraph, refused links vanish and leave their text. (A transform must never produce a tag
// the sanitizer then discards: sanitize-html would close a later sibling with the wrong name.)
const HEADING = "wren-heading";
const UNLINKED = "wren-unlinked";

/** Elements removed with everything inside them (Sanitize's defaults, plus form/head junk). */
const REMOVED_WITH_CONTENT = [
  "script",
  "style",
  "iframe",
  "math",
  "noembed",
  "noframes",
  "noscript",
  "plaintext",
  "svg",
  "xmp",
  "textarea",
  "option",
  "select",
  "template",
  "title",
  "head",
  "object",
];

function allowedClass(name: string): boolean {
  return (
    /^(h|p|u|dt|e)-/.test(name) ||
    name === "mention" ||
    name === "hashtag" ||
    name === "ellipsis" ||
    name === "invisible" ||
    name === "quote-inline"
  );
}

function keptClasses(value: string): string | null {
  const kept = value.split(/[\t\n\f\r ]+/).filter((c) => c !== "" && allowedClass(c));
  return kept.length > 0 ? kept.join(" ") : null;
}

function linkScheme(href: string | undefined): string | null {
  const match = /^\s*([a-z][a-z0-9+.-]*):/i.exec(href ?? "");
  return match ? (match[1] as string).toLowerCase() : null;
}

/** Classes reduced to the allowed ones, `translate` kept only as "no"; order unchanged. */
function cleanAttributes(attribs: Attributes): Attributes {
  const out: Attributes = {};
  for (const [name, value] of Object.entries(attribs)) {
    if (name === "class") {
      const classes = keptClasses(value);
      if (classes !== null) out.class = classes;
    } else if (name !== "translate" || value === "no") {
      out[name] = value;
    }
  }
  return out;
}

const heading = () => ({ tagName: HEADING, attribs: {} });
const unlinked = () => ({ tagName: UNLINKED, attribs: {} });

const BASE_OPTIONS: IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    "*": ["lang"],
    a: ["href", "rel", "class", "translate", "target"],
    span: ["class", "translate"],
    ol: ["start", "reversed"],
    li: ["value"],
    p: ["class"],
  },
  allowedSchemes: LINK_SCHEMES,
  allowedSchemesByTag: {},
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  nonTextTags: REMOVED_WITH_CONTENT,
  parseStyleAttributes: false,
  transformTags: {
    a: (_tag, attribs) => {
      const scheme = linkScheme(attribs.href);
      // Relative links and unknown schemes (javascript:, data:…) are not links at all.
      if (scheme === null || !LINK_SCHEMES.includes(scheme)) {
        return unlinked();
      }
      return {
        tagName: "a",
        attribs: { ...cleanAttributes(attribs), rel: "nofollow noopener", target: "_blank" },
      };
    },
    span: (_tag, attribs) => ({ tagName: "span", attribs: cleanAttributes(attribs) }),
    p: (_tag, attribs) => ({ tagName: "p", attribs: cleanAttributes(attribs) }),
    h1: heading,
    h2: heading,
    h3: heading,
    h4: heading,
    h5: heading,
    h6: heading,
    // The placeholders themselves, when a document spells them, are only text.
    [HEADING]: unlinked,
    [UNLINKED]: unlinked,
  },
};

const WITH_PLACEHOLDERS: IOptions = {
  ...BASE_OPTIONS,
  allowedTags: [...ALLOWED_TAGS, HEADING, UNLINKED],
};

/** Remote HTML reduced to what Mastodon would show; non-strings give "". */
export function sanitizeRemoteHtml(html: unknown): string {
  if (typeof html !== "string" || html === "") return "";
  const cleaned = sanitize(html, WITH_PLACEHOLDERS);
  // Placeholders can only come from the transforms: a text `<` is escaped by the sanitizer.
  return (
    cleaned
      .replaceAll(`<${HEADING}>`, "<p><strong>")
      .replaceAll(`</${HEADING}>`, "</strong></p>")
      .replaceAll(`<${UNLINKED}>`, "")
      .replaceAll(`</${UNLINKED}>`, "")
      // HTML, not XHTML, as Mastodon writes it.
      .replaceAll("<br />", "<br>")
  );
}
