// `#hashtags` in typed text, following Mastodon's Tag::HASHTAG_RE: a name of word characters
// (with `_`, `·`, `・` and ZWNJ allowed inside) containing at least one letter, not preceded by
// a letter, digit, `=`, `/` or `)` (so URL fragments and `a#b` are not tags).

export interface FoundHashtag {
  start: number;
  end: number;
  /** As typed, without `#`. */
  name: string;
}

const WORD = String.raw`\p{L}\p{M}\p{Nd}\p{Pc}`;
const SEP = String.raw`_\u00B7\u30FB\u200C`;
const FIRST = String.raw`[${WORD}_][${WORD}${SEP}]*[\p{Alpha}${SEP}][${WORD}${SEP}]*[${WORD}_]`;
const LAST = String.raw`[${WORD}_]*\p{Alpha}[${WORD}_]*`;
const HASHTAG = new RegExp(String.raw`(?<![=/)\p{L}\p{Nd}])#(${FIRST}|${LAST})`, "giu");

export function findHashtags(text: string): FoundHashtag[] {
  const out: FoundHashtag[] = [];
  for (const match of text.matchAll(HASHTAG)) {
    const start = match.index;
    const end = start + match[0].length;
    // `#foo://…` is the start of something else, as in Mastodon's extractor.
    if (text.startsWith("://", end)) continue;
    out.push({ start, end, name: match[1] as string });
  }
  return out;
}

/** The stored form of a tag name: compatibility-normalised and lowercase. */
export function normalizeTag(name: string): string {
  return name.normalize("NFKC").toLowerCase();
}

const HASHTAG_NAME = new RegExp(`^(?:${FIRST}|${LAST})$`, "u");

/**
 * Whether `name` (without `#`) can be a hashtag, by the same rule as tags found in text
 * (Mastodon's HASHTAG_NAME_RE): word characters with at least one letter, so `2024` is not one.
 */
export function isHashtagName(name: string): boolean {
  return HASHTAG_NAME.test(name);
}
