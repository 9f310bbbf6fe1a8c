// Parameter types shared by endpoint schemas. Form and multipart bodies carry only strings, so
// booleans, numbers and lists are accepted in their string forms too, as Rails accepts them.

import { z } from "zod";

const TRUE_STRINGS = new Set(["true", "1", "on", "t", "yes"]);
const FALSE_STRINGS = new Set(["false", "0", "off", "f", "no"]);

/** A boolean sent as JSON `true`, `1`, or a string such as "true", "1", "on", "off", "0". */
export const booleanParam = z
  .union([z.boolean(), z.number(), z.string()])
  .transform((value, ctx) => {
    if (typeof value === "boolean") return value;
    if (typeof value === "number") {
      if (value === 1) return true;
      if (value === 0) return false;
    } else {
      const lowered = value.trim().toLowerCase();
      if (TRUE_STRINGS.has(lowered)) return true;
      if (FALSE_STRINGS.has(lowered)) return false;
    }
    ctx.addIssue({ code: "custom", message: "must be a boolean" });
    return z.NEVER;
  });

/** An integer sent as a JSON number or a decimal string. */
export const integerParam = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const n = typeof value === "number" ? value : /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) {
    ctx.addIssue({ code: "custom", message: "must be an integer" });
    return z.NEVER;
  }
  return n;
});

/** A list given as `key[]=a&key[]=b`, a JSON array, or a single value `key=a`. */
export function listParam<T extends z.ZodType>(item: T) {
  return z
    .union([z.array(item), item])
    .transform((value) =>
      Array.isArray(value) ? (value as z.output<T>[]) : [value as z.output<T>],
    );
}

/**
 * An id as given, a string or a JSON number, as a string. JSON bodies keep the digits of ids
 * beyond 2^53 (see exact-json.ts), so a number here is exact.
 */
export const anyIdParam = z.union([z.string(), z.number()]).transform((value) => String(value));

/** A numeric id string (JSON clients sometimes send ids as numbers). */
export const idParam = anyIdParam.pipe(z.string().regex(/^[0-9]{1,25}$/, "must be an id"));

/** Mastodon's `limit`: clamped into [1, max], default when absent. */
export function limitParam(defaultLimit: number, max: number) {
  return integerParam
    .optional()
    .transform((n) => (n === undefined ? defaultLimit : Math.min(Math.max(n, 1), max)));
}
