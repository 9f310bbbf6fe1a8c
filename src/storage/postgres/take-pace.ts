// The most units a rate-limit take may ask for, from the pace at which this process handed out
// its last take of the same key (ADR 0054). At a fixed cap of 64 (ADR 0047), one token read at
// thousands of requests a second sent a statement every 64 requests, and its concurrent requests
// all waited for the database whenever the units ran out. The cap is now what the caller used of
// this process in a quarter of a second at that pace, at least the base cap, and at most twice
// the last take's cap (so it grows over a few takes, and a burst does not jump it at once). Above
// the base, a process therefore holds no more than a quarter second of the caller's requests to
// it; the sixteenth of what the window had left still bounds every take (counter-reservations.ts).

/** The span of the caller's requests, at its last pace, that a take may hold. */
export const PACE_SPAN_MS = 250;

/** A key's last take: when it was answered, its cap, the units it gave, how many are left. */
export interface Pace {
  takenAt: number;
  cap: number;
  taken: number;
  left: number;
}

/** The cap of the take answered at `now`, after `last` (undefined: the key's first). */
export function nextCap(last: Pace | undefined, now: number, base: number): number {
  if (last === undefined) return base;
  const handedOut = last.taken - last.left;
  const paced = Math.floor((handedOut * PACE_SPAN_MS) / Math.max(1, now - last.takenAt));
  return Math.max(base, Math.min(2 * last.cap, paced));
}
