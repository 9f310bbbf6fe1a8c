// What a status search matches against, and how a query becomes terms. Deliberately simple (no
// index): every term must occur, case-insensitively, in the status's text or content warning.
// A term is a word, or a "quoted phrase".

import type { Status } from "../../domain/status.ts";
import { htmlText } from "../../domain/text/html.ts";

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
