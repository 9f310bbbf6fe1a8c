// What an author asks for when attaching a poll to a status (POST and PUT /api/v1/statuses),
// checked the way Mastodon's Poll model checks it: options stripped and blanks dropped, then
// every failed rule reported at once under the names Mastodon gives the fields ("Choices",
// "Deadline"), so clients show the same messages they know.

import { unprocessable } from "../../domain/errors.ts";
import { POLL_LIMITS } from "../../views/instance-view.ts";

export interface PollParams {
  options?: readonly string[] | undefined;
  /** Seconds the poll stays open. */
  expiresIn?: number | undefined;
  multiple?: boolean | undefined;
  hideTotals?: boolean | undefined;
}

export interface CheckedPoll {
  options: string[];
  expiresIn: number;
  multiple: boolean;
  hideTotals: boolean;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** Characters as a reader counts them: an emoji with modifiers is one. */
function graphemeLength(text: string): number {
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}

/** Throws a 422 listing every rule the poll breaks; otherwise the poll to store. */
export function checkPollParams(params: PollParams): CheckedPoll {
  const options = (params.options ?? []).map((o) => o.trim()).filter((o) => o !== "");
  const expiresIn = params.expiresIn;
  const errors: string[] = [];
  if (options.length === 0) errors.push("Choices can't be blank");
  if (expiresIn === undefined) errors.push("Deadline can't be blank");
  if (options.length < 2) errors.push("Choices must have more than one item");
  if (options.length > POLL_LIMITS.maxOptions) {
    errors.push(`Choices can't contain more than ${POLL_LIMITS.maxOptions} items`);
  }
  if (options.some((o) => graphemeLength(o) > POLL_LIMITS.maxCharactersPerOption)) {
    errors.push(
      `Choices cannot be longer than ${POLL_LIMITS.maxCharactersPerOption} characters each`,
    );
  }
  if (new Set(options).size !== options.length) errors.push("Choices contain duplicate items");
  if (expiresIn === undefined || expiresIn > POLL_LIMITS.maxExpiration) {
    errors.push("Deadline is too far into the future");
  }
  if (expiresIn !== undefined && expiresIn < POLL_LIMITS.minExpiration) {
    errors.push("Deadline is too soon");
  }
  if (errors.length > 0 || expiresIn === undefined) {
    throw unprocessable(`Validation failed: ${errors.join(", ")}`);
  }
  return {
    options,
    expiresIn,
    multiple: params.multiple ?? false,
    hideTotals: params.hideTotals ?? false,
  };
}

/** Mastodon refuses media with a poll through its attachment-count rule. */
export function checkPollWithoutMedia(mediaCount: number, maxMedia: number): void {
  if (mediaCount > 0) {
    throw unprocessable(`Validation failed: Cannot attach more than ${maxMedia} files`);
  }
}
