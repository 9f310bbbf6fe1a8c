// Which of a user's filters match a status, as Mastodon decides it: a keyword matches anywhere
// in the status's searchable text (content warning, text as plain text, poll options, media
// descriptions), case-insensitively; a whole-word keyword only where it is not glued to other
// word characters on a side where the keyword itself begins or ends with one (so "#tag" or
// "c++" still match with whole_word). A filter may also name statuses, which match the status
// and a boost of it. Expired filters do not apply. Pure: the read side (views/) feeds it.

import {
  type CustomFilter,
  type FilterContext,
  type FilterKeyword,
  filterExpired,
} from "./filter.ts";
import type { Status } from "./status.ts";
import { htmlToText } from "./text/html.ts";

/** A filter with its keywords compiled once for a batch of statuses. */
export interface CompiledFilter {
  filter: CustomFilter;
  /** All keywords as one pattern; null when the filter has none. */
  pattern: RegExp | null;
  statusIds: ReadonlySet<string>;
}

/** Why a filter applies to a status (Mastodon's FilterResult). */
export interface FilterMatch {
  filter: CustomFilter;
  /** The text that matched (the first match), or null when no keyword did. */
  keywordMatches: string[] | null;
  /** The filtered status ids among the status and its boosted original, or null. */
  statusMatches: string[] | null;
}

/** What of a status is matched: the boosted original's content for a boost. */
export interface FilterSubject {
  /** The status's own id and, for a boost, the original's. */
  statusIds: readonly string[];
  text: string;
}

const WORD = String.raw`[\p{L}\p{M}\p{N}_]`;
const STARTS_WITH_WORD = new RegExp(`^${WORD}`, "u");
const ENDS_WITH_WORD = new RegExp(`${WORD}$`, "u");

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

function keywordSource({ keyword, wholeWord }: FilterKeyword): string {
  const escaped = escapeRegExp(keyword);
  if (!wholeWord) return escaped;
  // A boundary only where the keyword has a word character at that end, as Mastodon does;
  // lookarounds instead of \b so that letters beyond ASCII count as word characters.
  const start = STARTS_WITH_WORD.test(keyword) ? `(?<!${WORD})` : "";
  const end = ENDS_WITH_WORD.test(keyword) ? `(?!${WORD})` : "";
  return `${start}${escaped}${end}`;
}

/** The filters in force at `now`, compiled. */
export function compileFilters(filters: readonly CustomFilter[], now: Date): CompiledFilter[] {
  return filters
    .filter((filter) => !filterExpired(filter, now))
    .map((filter) => ({
      filter,
      pattern:
        filter.keywords.length === 0
          ? null
          : new RegExp(filter.keywords.map((k) => `(?:${keywordSource(k)})`).join("|"), "iu"),
      statusIds: new Set(filter.statuses.map((s) => s.statusId)),
    }));
}

/** The filters that match the status, in the order given. */
export function matchFilters(
  compiled: readonly CompiledFilter[],
  subject: FilterSubject,
): FilterMatch[] {
  const out: FilterMatch[] = [];
  for (const { filter, pattern, statusIds } of compiled) {
    const found = pattern?.exec(subject.text);
    const keywordMatches = found ? [found[0]] : null;
    const named = subject.statusIds.filter((id) => statusIds.has(id));
    const statusMatches = named.length > 0 ? named : null;
    if (keywordMatches || statusMatches) out.push({ filter, keywordMatches, statusMatches });
  }
  return out;
}

/** The text keywords are matched against, its parts joined by blank lines as Mastodon does. */
export function searchableText(parts: {
  spoilerText: string;
  plainText: string;
  pollOptions: readonly string[];
  mediaDescriptions: readonly (string | null)[];
}): string {
  return [
    parts.spoilerText,
    parts.plainText,
    parts.pollOptions.join("\n\n"),
    parts.mediaDescriptions.filter((d): d is string => d !== null && d !== "").join("\n\n"),
  ].join("\n\n");
}

/** What matching a status needs besides the status: its attachments' and poll's text. */
export interface StatusExtras {
  mediaDescription(mediaId: string): string | null;
  pollOptions(pollId: string): readonly string[];
}

/** The filters matching a status, by its boosted original's content for a boost. */
export function matchStatus(
  compiled: readonly CompiledFilter[],
  status: Status,
  original: Status | null,
  extras: StatusExtras,
): FilterMatch[] {
  if (compiled.length === 0) return [];
  const proper = original ?? status;
  const text = searchableText({
    spoilerText: proper.spoilerText,
    plainText: htmlToText(proper.contentHtml),
    pollOptions: proper.pollId ? extras.pollOptions(proper.pollId) : [],
    mediaDescriptions: proper.mediaIds.map((id) => extras.mediaDescription(id)),
  });
  return matchFilters(compiled, {
    statusIds: original ? [status.id, original.id] : [status.id],
    text,
  });
}

/**
 * The matches that apply where the viewer reads (`context`), or null when one of them hides
 * the status there.
 */
export function matchesInContext(
  matches: readonly FilterMatch[],
  context: FilterContext,
): FilterMatch[] | null {
  const here = matches.filter((m) => m.filter.context.includes(context));
  return here.some((m) => m.filter.action === "hide") ? null : here;
}
