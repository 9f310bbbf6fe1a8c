// The fields an uploader sets on an attachment (at upload, with PUT /api/v1/media/:id, and with
// media_attributes[] when editing a status): alt text and the focal point, checked the way
// Mastodon's MediaAttachment model checks them.

import { unprocessable } from "../../domain/errors.ts";
import { MEDIA_DESCRIPTION_LIMIT } from "../../media/limits.ts";

/** undefined: leave unchanged; null: no description. Blank text clears it. */
export function checkDescription(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") return null;
  // Counted in code points, as Ruby counts a String's length.
  if ([...value].length > MEDIA_DESCRIPTION_LIMIT) {
    throw unprocessable(
      `Validation failed: Description is too long (maximum is ${MEDIA_DESCRIPTION_LIMIT} characters)`,
    );
  }
  return value;
}

const NUMBER = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?\s*$/i;

/**
 * `focus` as "x,y", two numbers from -1.0 to 1.0 (left/bottom to right/top). undefined when not
 * given or blank (Mastodon leaves the focus as it was); anything else malformed is a 422.
 */
export function parseFocus(value: string | undefined): { x: number; y: number } | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const parts = value.split(",");
  const [x, y] = parts.map((p) => (NUMBER.test(p) ? Number(p) : Number.NaN));
  const inRange = (n: number | undefined): n is number =>
    n !== undefined && Number.isFinite(n) && n >= -1 && n <= 1;
  if (parts.length !== 2 || !inRange(x) || !inRange(y)) {
    throw unprocessable(
      "Validation failed: Focus must be two comma-separated numbers from -1.0 to 1.0",
    );
  }
  // -0 would serialise as 0 anyway; keep the stored value plain.
  return { x: x + 0, y: y + 0 };
}
