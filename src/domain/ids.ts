// Mastodon-style ids: numeric strings that sort by creation time. The value is the creation time
// in milliseconds shifted left 16 bits plus a per-millisecond sequence, so ids made in the same
// millisecond stay unique and ordered, and `max_id`/`since_id` pagination is a plain comparison.

export interface IdGenerator {
  next(): string;
}

export function createIdGenerator(now: () => number = Date.now): IdGenerator {
  let lastMs = 0;
  let sequence = 0;
  return {
    next() {
      let ms = now();
      if (ms <= lastMs) {
        // Same millisecond (or the clock stepped back): keep counting from the last id so ids
        // never repeat and never go backwards within one process.
        ms = lastMs;
        sequence += 1;
        if (sequence > 0xffff) {
          ms += 1;
          sequence = 0;
        }
      } else {
        sequence = 0;
      }
      lastMs = ms;
      return ((BigInt(ms) << 16n) | BigInt(sequence)).toString();
    },
  };
}

/** The smallest id that could have been made at `date` (for time-bounded queries). */
export function idFromTime(date: Date): string {
  return (BigInt(date.getTime()) << 16n).toString();
}

export function timeFromId(id: string): Date {
  return new Date(Number(BigInt(id) >> 16n));
}

const ID_PATTERN = /^[1-9][0-9]{0,24}$/;

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}

/** Orders two ids numerically: negative when a < b. Ids of different lengths compare by length. */
export function compareIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
