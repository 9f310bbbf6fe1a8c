// What a status search matches against, and how a query becomes terms. Deliberately simple (no
// index): every term must occur, case-insensitively, in the status's text or content warning.
// A term is a word, or a "quoted phrase".

import type { Status } from "../../domain/status.ts";

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** The readable text of stored HTML (remote statuses keep only HTML): tags out, entities decoded. */
function htmlText(html: string): string {
  return html
    .replace(/<br\s*\/?>|<\/p>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === "#") {
        const code =
          name[1] === "x" || name[1] === "X"
            ? Number.parseInt(name.slice(2), 16)
            : Number.parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    });
}

/** Lower-cased text a status is searched by: the typed text (local) or its HTML's text. */
export function searchableText(status: Status): string {
  const body = status.text !== "" ? status.text : htmlText(status.contentHtml);
  return `${status.spoilerText}\n${body}`.toLowerCase();
}

/** The query's terms, lower case: words, and "quoted phrases" kept whole. */
export function queryTerms(query: string): string[] {
  const terms: string[] = [];
  for (const match of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    const term = (match[1] ?? match[2] ?? "").trim().toLowerCase();
    if (term !== "") terms.push(term);
  }
  return terms;
}

export function matchesTerms(text: string, terms: readonly string[]): boolean {
  return terms.length > 0 && terms.every((term) => text.includes(term));
}
