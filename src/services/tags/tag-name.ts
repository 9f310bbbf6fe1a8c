// A hashtag name from a client (a path segment, a form field): trimmed, without a leading `#`,
// held to the hashtag rule. The stored (compared) form is the normalised one; Mastodon shows
// the name as first typed, which featured tags keep.

import { isHashtagName, normalizeTag } from "../../domain/text/hashtags.ts";

/** Longer names are refused; a hashtag timeline treats them the same way. */
const MAX_TAG_LENGTH = 100;

export interface TagName {
  /** As typed, without `#`. */
  display: string;
  /** Compatibility-normalised, lowercase: the key of follows, features and the tag index. */
  normalized: string;
}

/** The name, or null when it cannot be a hashtag. */
export function parseTagName(raw: string): TagName | null {
  const display = raw.trim().replace(/^#/, "");
  if (display.length === 0 || display.length > MAX_TAG_LENGTH || !isHashtagName(display)) {
    return null;
  }
  return { display, normalized: normalizeTag(display) };
}
