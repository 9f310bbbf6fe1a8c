// Mastodon-style ids: numeric strings that sort by creation time. The value is the creation time
// in milliseconds shifted left 16 bits plus 16 low bits that keep ids made in the same
// millisecond unique and ordered, so `max_id`/`since_id` pagination is a plain comparison.
//
// Several processes sharing one database would mint the same ids in the same millisecond, so the
// low 16 bits are split: the top `slotBits` hold the process's slot (unique among the live
// processes, leased from the storage at start) and the rest a per-millisecond sequence. One
// process alone (json-file) has no slot bits and keeps all 16 for its sequence.

export interface IdGenerator {
  next(): string;
}

/** Which share of the id space a process mints in; the storage hands it out (Coordination). */
export interface IdSpace {
  /** 0 ≤ slot < 2^slotBits, unique among the processes minting ids at the same time. */
  readonly slot: number;
  /** How many of the 16 low bits hold the slot (0: one process owns the whole space). */
  readonly slotBits: number;
  /**
   * Milliseconds no id of this slot may be made at or before: an earlier holder of the slot may
   * have made ids up to then (with a clock ahead of ours), and they must not repeat.
   */
  readonly floorMs: number;
}

export const WHOLE_ID_SPACE: IdSpace = { slot: 0, slotBits: 0, floorMs: 0 };

/** A generator that tells how far its ids have gone (the storage records it for the slot). */
export interface SlotIdGenerator extends IdGenerator {
  /** The millisecond of the latest id made (the space's floor before the first). */
  readonly lastMs: number;
}

export function createIdGenerator(
  now: () => number = Date.now,
  space: IdSpace = WHOLE_ID_SPACE,
): SlotIdGenerator {
  const sequenceBits = 16 - space.slotBits;
  const maxSequence = (1 << sequenceBits) - 1;
  const slot = BigInt(space.slot) << BigInt(sequenceBits);
  let lastMs = space.floorMs;
  let sequence = maxSequence;
  return {
    get lastMs() {
      return lastMs;
    },
    next() {
      let ms = now();
      if (ms <= lastMs) {
        // Same millisecond (or the clock stepped back, or is behind the slot's floor): keep
        // counting from the last id so ids never repeat and never go backwards.
        ms = lastMs;
        sequence += 1;
        if (sequence > maxSequence) {
          ms += 1;
          sequence = 0;
        }
      } else {
        sequence = 0;
      }
      lastMs = ms;
      return ((BigInt(ms) << 16n) | slot | BigInt(sequence)).toString();
    },
  };
}

/**
 * One id space shared by several generators, each on its own clock (tests build several service
 * contexts over one storage): they take turns on one sequence, so none repeats another's ids.
 */
export interface IdSource {
  generator(now: () => number): IdGenerator;
  /** The millisecond of the latest id made by any of them (the space's floor before the first). */
  readonly lastMs: number;
}

export function createIdSource(space: IdSpace = WHOLE_ID_SPACE): IdSource {
  let clock: () => number = Date.now;
  const shared = createIdGenerator(() => clock(), space);
  return {
    generator: (now) => ({
      next() {
        clock = now;
        return shared.next();
      },
    }),
    get lastMs() {
      return shared.lastMs;
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
