// HTML escaping for text that users typed (everything that reaches HTML from a plain-text source
// goes through here first), and the way back: the readable text of stored HTML.

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** Decodes character references; unknown names and invalid code points stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (match, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X"
          ? Number.parseInt(name.slice(2), 16)
          : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return NAMED[name.toLowerCase()] ?? match;
  });
}

/** The text of HTML: tags out, paragraph ends and line breaks as spaces, entities decoded. */
export function htmlText(html: string): string {
  return decodeEntities(html.replace(/<br\s*\/?>|<\/p>/gi, " ").replace(/<[^>]*>/g, ""));
}

/** HTML → one line of plain text: paragraphs and line breaks become spaces. */
export function htmlToText(html: string): string {
  return htmlText(html).replace(/\s+/g, " ").trim();
}
