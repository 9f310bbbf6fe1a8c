// The validation rules of filters and keywords, as Mastodon's model states them: a title and
// at least one known context, an action among warn/hide/blur, a non-blank keyword. Failures
// are 422 with Mastodon's "Validation failed: …" wording.

import { unprocessable } from "../../domain/errors.ts";
import {
  FILTER_CONTEXTS,
  type FilterAction,
  type FilterContext,
  isFilterAction,
  isFilterContext,
} from "../../domain/filter.ts";

/** Longest title or keyword kept, in characters (a bound on what one request may store). */
export const MAX_FILTER_TEXT = 1000;

export function checkTitle(title: string): string {
  if (title.trim() === "") throw unprocessable("Validation failed: Title can't be blank");
  if ([...title].length > MAX_FILTER_TEXT) {
    throw unprocessable(`Validation failed: Title is too long (maximum is ${MAX_FILTER_TEXT})`);
  }
  return title;
}

/** Blank entries are dropped (as Mastodon normalises the list); what is left must be known. */
export function checkContext(context: readonly string[]): FilterContext[] {
  const given = context.map((c) => c.trim()).filter((c) => c !== "");
  if (given.length === 0 || !given.every(isFilterContext)) {
    throw unprocessable(
      `Validation failed: Context can't be blank, Context None or invalid context supplied (${FILTER_CONTEXTS.join(", ")})`,
    );
  }
  return [...new Set(given)] as FilterContext[];
}

export function checkAction(action: string): FilterAction {
  if (!isFilterAction(action)) {
    throw unprocessable("Validation failed: Filter action is not included in the list");
  }
  return action;
}

export function checkKeyword(keyword: string): string {
  if (keyword.trim() === "") throw unprocessable("Validation failed: Keyword can't be blank");
  if ([...keyword].length > MAX_FILTER_TEXT) {
    throw unprocessable(`Validation failed: Keyword is too long (maximum is ${MAX_FILTER_TEXT})`);
  }
  return keyword;
}

/** `expires_in` seconds from now; null (or absent) never expires. */
export function expiryFrom(now: Date, expiresIn: number | null): string | null {
  if (expiresIn === null) return null;
  if (expiresIn < 0) throw unprocessable("Validation failed: Expires in must be positive");
  return new Date(now.getTime() + expiresIn * 1000).toISOString();
}
