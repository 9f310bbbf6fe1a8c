// What a client may set on a list, checked the same way on create and update: a title that is
// not blank, one of Mastodon's reply policies, and whether the list is exclusive.

import { unprocessable } from "../../domain/errors.ts";
import type { RepliesPolicy } from "../../domain/list.ts";

/** Longest title kept; Mastodon's column is unbounded, so this only stops abuse. */
export const MAX_TITLE_LENGTH = 256;

export interface ListFields {
  title: string;
  repliesPolicy: RepliesPolicy;
  exclusive: boolean;
}

export function checkTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed === "") throw unprocessable("Validation failed: Title can't be blank");
  if ([...trimmed].length > MAX_TITLE_LENGTH) {
    throw unprocessable(`Validation failed: Title is too long (maximum is ${MAX_TITLE_LENGTH})`);
  }
  return trimmed;
}
