// JSON request bodies parsed without losing digits: clients (megalodon, Mastodon.py, scripts)
// sometimes send ids as JSON numbers, and Mastodon ids are above 2^53, where a JS number rounds
// `117678306780643328` to `117678306780643330`. An integer a number cannot hold exactly is kept
// as its digit string (as written), which every id parameter accepts; integer parameters turn
// it back into a number or refuse it as out of range, as before.

/** 2^53 has 16 digits: a body with no run of 16 digits holds no unsafe integer. */
const LONG_DIGIT_RUN = /\d{16}/;
const INTEGER = /^-?\d+$/;

// V8 hands a reviver the source text of each primitive (Node 22+); the declaration is newer than
// TypeScript's lib.
type Reviver = (key: string, value: unknown, context: { source?: string }) => unknown;

const keepUnsafeIntegers: Reviver = (_key, value, context) =>
  typeof value === "number" &&
  !Number.isSafeInteger(value) &&
  context.source !== undefined &&
  INTEGER.test(context.source)
    ? context.source
    : value;

/** JSON.parse, except that integers beyond Number.MAX_SAFE_INTEGER come back as digit strings. */
export function parseExactJson(text: string): unknown {
  // The reviver costs a call per value: skip it when no integer can be unsafe.
  if (!LONG_DIGIT_RUN.test(text)) return JSON.parse(text);
  return JSON.parse(text, keepUnsafeIntegers as (key: string, value: unknown) => unknown);
}
