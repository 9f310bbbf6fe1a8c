// Rate-limit hits answered without a statement where that stays exact (ADR 0042): a reservable
// hit (CounterHit.reservable) that goes to the shared counter asks for a few units of the
// caller's window at once, as many as a sixteenth of what the window had left at the last
// answer (at most 64, or a quarter second of the caller's requests at its last pace where that is
// more: take-pace.ts, ADR 0054; one near the limit, so a small limit is counted one by one). The upsert
// adds at most what is left, at least the hit's own unit (window-counters.ts); this process
// hands the rest out to its next hits of the key, in order, without asking (countHeld: at once,
// without a promise), and asks for a fast caller's next take before they run out (ADR 0054).
// One take of a key is on its way at a time: a hit finding nothing held waits for it (ADR 0069).
//
// What holds across processes: the shared `used` counts every unit handed out or held, so the
// limit is never exceeded. A caller may be refused by one process while others still hold
// units of its window: at most 63 per other process (or a quarter second of the caller's
// requests to it at their last pace, ADR 0054), and never more than a sixteenth of what was left when they took
// them. (The cap was 16, ADR 0042; 64 sends a quarter of the statements
// where the limit is large, as an API limit of thousands, and changes nothing below ~1,000, where
// the sixteenth is smaller: ADR 0047.) Held units die with the window (or the process): the caller loses at
// most that many. The X-RateLimit headers a held unit answers with count the other processes'
// hits only up to the last statement.

import { LruCache } from "../../domain/lru-cache.ts";
import type { CounterHit, CounterWindow } from "../ports.ts";
import { nextCap } from "./take-pace.ts";

/**
 * The most units one statement takes for one key (budget-reservations.ts too); a rate limit's
 * take may grow past it with the caller's pace (take-pace.ts).
 */
export const RESERVED_AT_MOST = 64;
/** What a statement takes of what the window had left: a sixteenth. */
export const RESERVED_SHARE = 16;
/** Keys whose units are held at most (the least recently used go first, with their units). */
const CAPACITY = 50_000;

/** The units held of a key's window, and the count the next one answers with. */
export interface Held {
  resetAt: number;
  left: number;
  nextUsed: number;
  /** The window's `used` at the last answer, for the size of the next take. */
  seen: number;
}

/**
 * Adds the units an answer gave to those held. Answers of one process's statements may come back
 * in another order than the database counted them, so the held units are numbered no higher than
 * the highest count seen: a held unit never answers past the limit (where a rate-limited hit
 * would be refused with a unit it holds, and a budget would tell more than it allows).
 */
export function addToHeld(kept: Held, units: number, answerUsed: number): void {
  kept.left += units;
  kept.seen = Math.max(kept.seen, answerUsed);
  kept.nextUsed = Math.min(kept.nextUsed, kept.seen - kept.left + 1);
}

/** A key's next take is asked for once no more than this share of its cap is left held. */
const REFILL_AT = 4;

/** Held units with the pace of their take (take-pace.ts). */
interface HeldAtPace extends Held {
  takenAt: number;
  cap: number;
  /** The units the take gave (with those of concurrent takes added to it). */
  taken: number;
}

type CountInTurn = (hits: readonly CounterHit[], now: number) => Promise<CounterWindow[]>;
type CountHeld = (hits: readonly CounterHit[], now: number) => CounterWindow[] | undefined;

/** countInTurn counting ahead, what this process holds of a key's window, and its held units. */
export interface ReservingCounts {
  countInTurn: CountInTurn;
  /** The held units alone, handed out at once; undefined unless every hit has one (ADR 0054). */
  countHeld: CountHeld;
  /**
   * The window of `key` as this process counts it while it holds units of it (the next hit is
   * then sure to be let through): a read without a statement (Coordination.count with amount 0,
   * a success-only limit's look before the answer, ADR 0057). Undefined when none are held.
   */
  heldWindow(key: string, now: number): CounterWindow | undefined;
}

export function reservingCounts(countInTurn: CountInTurn): ReservingCounts {
  const held = new LruCache<string, HeldAtPace>(CAPACITY);

  /** The units to ask for: a sixteenth of what was left at the last answer, 1 to the cap. */
  const take = (hit: CounterHit, now: number) => {
    const kept = held.get(hit.key);
    if (!kept || kept.resetAt <= now) return 1;
    const cap = nextCap(kept, now, RESERVED_AT_MOST);
    return Math.max(1, Math.min(cap, Math.floor((hit.limit - kept.seen) / RESERVED_SHARE)));
  };

  const local = (hit: CounterHit, now: number) => {
    if (!hit.reservable) return undefined;
    const kept = held.get(hit.key);
    return kept && kept.resetAt > now && kept.left > 0 ? kept : undefined;
  };

  const heldWindow = (key: string, now: number): CounterWindow | undefined => {
    const kept = held.get(key);
    if (kept === undefined || kept.resetAt <= now || kept.left <= 0) return undefined;
    return { used: kept.nextUsed - 1, resetAt: kept.resetAt };
  };

  /** One held unit handed out: the window it answers. */
  const handOut = (kept: Held): CounterWindow => {
    kept.left -= 1;
    const window: CounterWindow = { used: kept.nextUsed, resetAt: kept.resetAt };
    kept.nextUsed += 1;
    return window;
  };

  /**
   * The take of each key on its way to the database (asked ahead or on demand), settled once its
   * units are held: a hit of that key finding none held waits for it instead of asking its own.
   * When a fast caller's units ran out, each of its concurrent requests sent a take of its own,
   * all queued on the same row (ten at once in the bench), and each request waited for its own.
   */
  const taking = new Map<string, Promise<void>>();
  /** Marks the keys' takes as on their way; the returned function settles them. */
  const markTaking = (keys: readonly string[]): (() => void) => {
    let settle: () => void = () => {};
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const mine = keys.filter((key) => !taking.has(key));
    for (const key of mine) taking.set(key, settled);
    return () => {
      for (const key of mine) if (taking.get(key) === settled) taking.delete(key);
      settle();
    };
  };
  /** At most this many takes of others a hit waits for before asking its own. */
  const WAITS = 3;

  /**
   * Asks for a key's next take before its held units run out (ADR 0054), so a fast caller's
   * concurrent requests do not all wait for the database (and each send a statement) when they
   * do. Only for a full take where the window had room for sixteen such: near the limit, takes go
   * on demand. The answer's units are added to those held; none past the limit is kept.
   */
  const refillAhead = (hit: CounterHit, kept: HeldAtPace, now: number) => {
    if (taking.has(hit.key) || kept.left > kept.cap / REFILL_AT) return;
    const amount = nextCap(kept, now, RESERVED_AT_MOST);
    if (amount <= RESERVED_AT_MOST || hit.limit - kept.seen < amount * RESERVED_SHARE) return;
    const settle = markTaking([hit.key]);
    countInTurn([{ ...hit, amount }], now)
      .then(([answer]) => {
        const current = held.get(hit.key);
        if (answer === undefined || answer.used >= hit.limit) return;
        if (current === undefined || current.resetAt !== answer.resetAt) return;
        addToHeld(current, amount, answer.used);
        current.taken += amount;
        current.cap = Math.max(current.cap, amount);
      })
      // The next hit without units asks on demand, as before.
      .catch(() => {})
      .finally(settle);
  };

  // Held units are below the limit by construction (received), so no hit answered here is refused.
  const countHeld: CountHeld = (hits, now) => {
    const kept = hits.map((hit) => local(hit, now));
    if (!kept.every((k) => k !== undefined)) return undefined;
    return kept.map((k, i) => {
      const window = handOut(k);
      refillAhead(hits[i] as CounterHit, k, now);
      return window;
    });
  };

  const counting: CountInTurn = async (hits, now) => {
    // A key with nothing held but a take on its way: its answer's units serve this hit too.
    for (let waits = 0; waits < WAITS; waits++) {
      const coming = hits.flatMap((hit) => {
        const pending = local(hit, now) === undefined ? taking.get(hit.key) : undefined;
        return pending && hit.reservable ? [pending] : [];
      });
      if (coming.length === 0) break;
      await Promise.all(coming);
    }
    // The hits this process answers from held units, taken now (a concurrent request must not
    // take them too); the others go in one statement, in order.
    const plan = hits.map((hit) => {
      const kept = local(hit, now);
      if (kept === undefined) return undefined;
      const window = handOut(kept);
      refillAhead(hit, kept, now);
      return { kept, window };
    });
    const asked = hits.flatMap((hit, i) =>
      plan[i] ? [] : [hit.reservable ? { ...hit, amount: take(hit, now) } : hit],
    );
    // Settled once this statement's units are held (or it failed): hits waiting for it go on.
    const settle = markTaking(asked.flatMap((hit) => (hit.reservable ? [hit.key] : [])));
    let answers: CounterWindow[];
    try {
      answers = asked.length === 0 ? [] : await countInTurn(asked, now);
    } catch (error) {
      settle();
      throw error;
    }
    const windows: CounterWindow[] = [];
    let next = 0;
    let refused = false;
    hits.forEach((hit, i) => {
      const planned = plan[i];
      if (refused) {
        // A hit before it was refused: not counted, its unit given back.
        if (planned) {
          planned.kept.left += 1;
          planned.kept.nextUsed -= 1;
        }
        return;
      }
      let window: CounterWindow | undefined = planned?.window;
      if (window === undefined) {
        const sent = asked[next];
        const answer = answers[next];
        next += 1;
        if (sent === undefined || answer === undefined) {
          refused = true;
          return;
        }
        window = sent.reservable ? received(sent, answer, now) : answer;
      }
      windows.push(window);
      if (window.used > hit.limit) refused = true;
    });
    settle();
    return windows;
  };
  return { countInTurn: counting, countHeld, heldWindow };

  /**
   * Keeps the units an answer gave beyond the hit's own; returns the hit's window. `hit.amount`
   * units were asked for: below the limit, all were given; at it, maybe fewer (counted as one,
   * the others lost rather than risk one too many); past it, one, refused.
   */
  function received(hit: CounterHit, answer: CounterWindow, now: number) {
    const given = answer.used < hit.limit ? hit.amount : 1;
    const used = answer.used - given + 1;
    const kept = held.get(hit.key);
    if (kept && kept.resetAt === answer.resetAt && kept.resetAt > now && kept.left > 0) {
      // Another request of this process took units meanwhile: both are held.
      addToHeld(kept, given - 1, answer.used);
      kept.taken += given;
    } else {
      held.set(hit.key, {
        resetAt: answer.resetAt,
        left: given - 1,
        nextUsed: used + 1,
        seen: answer.used,
        takenAt: now,
        cap: nextCap(kept, now, RESERVED_AT_MOST),
        taken: given,
      });
    }
    return { used, resetAt: answer.resetAt };
  }
}
