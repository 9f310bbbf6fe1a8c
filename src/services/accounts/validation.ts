// Collects validation failures the way Rails reports them: every problem at once, in one 422
// whose `error` reads "Validation failed: Username has already been taken, Password is too
// short (minimum is 8 characters)" and whose `details` maps each field to its error codes (the
// shape Mastodon documents for sign-up).

import { unprocessable } from "../../domain/errors.ts";

export type ValidationCode =
  | "ERR_BLANK"
  | "ERR_INVALID"
  | "ERR_TAKEN"
  | "ERR_RESERVED"
  | "ERR_ACCEPTED"
  | "ERR_TOO_LONG"
  | "ERR_TOO_SHORT"
  | "ERR_INCLUSION"
  | "ERR_BLOCKED";

interface Problem {
  field: string;
  code: ValidationCode;
  description: string;
}

export interface Validation {
  add(field: string, code: ValidationCode, description: string): void;
  has(field: string): boolean;
  /** Throws the 422 when anything was added. */
  check(): void;
}

/** `display_name` → `Display name`, `source.language` → `Source language`. */
function humanize(field: string): string {
  const words = field.replace(/[._]/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function startValidation(): Validation {
  const problems: Problem[] = [];
  return {
    add(field, code, description) {
      problems.push({ field, code, description });
    },
    has(field) {
      return problems.some((p) => p.field === field);
    },
    check() {
      if (problems.length === 0) return;
      const message = problems.map((p) => `${humanize(p.field)} ${p.description}`).join(", ");
      const details: Record<string, { error: ValidationCode; description: string }[]> = {};
      for (const p of problems) {
        const list = details[p.field] ?? [];
        list.push({ error: p.code, description: p.description });
        details[p.field] = list;
      }
      throw unprocessable(`Validation failed: ${message}`, { details });
    },
  };
}

/** Rails' length messages. */
export const tooLong = (max: number, unit = "characters") =>
  `is too long (maximum is ${max} ${unit})`;
export const tooShort = (min: number) => `is too short (minimum is ${min} characters)`;

/** Length in characters as people count them (code points, so an emoji is one). */
export function charLength(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}
