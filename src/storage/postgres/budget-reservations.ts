// Action budgets (Coordination.spend: statuses, media) spent from units held by this process
// where that stays exact, as rate limits are (counter-reservations.ts, ADRs 0042 and 0047): a
// spend that goes to the shared row asks for a sixteenth of what the window had left at the last
// answer (at most 64; one near the limit, so a budget of less than 32 is spent one by one, and
// Mastodon's 300 statuses in at most 17 units at a time). The statement adds at most what is
// left, at least the spend's own unit (window-counters.ts spendUpTo); this process hands the rest
// to its next spends of the key without asking. Every post sent a statement for its budget
// before; under a stream of posts by one account, one in up to 64 does (ADR 0043 amended).
//
// What holds across processes: the shared `used` counts every unit handed out or held, so a
// budget is never overdrawn. A caller may be refused by one process while others still hold
// units of its window: at most a sixteenth of what was left when they took them, and at most 63,
// per other process; held units die with the window (or the process). A refund always goes to
// the shared row, so any process may spend the unit given back. The remaining count a held unit
// answers with counts the other processes' spends only up to the last statement.

import { LruCache } from "../../domain/lru-cache.ts";
import type { BudgetSpend, Coordination } from "../ports.ts";
import { addToHeld, type Held, RESERVED_AT_MOST, RESERVED_SHARE } from "./counter-reservations.ts";
import type { WindowCounters } from "./window-counters.ts";

/** Budgets whose units are held at most (the least recently used go first, with their units). */
const CAPACITY = 50_000;

export function reservingSpend(counters: Pick<WindowCounters, "spendUpTo">): Coordination["spend"] {
  const held = new LruCache<string, Held>(CAPACITY);

  return async (key, limit, windowMs, now): Promise<BudgetSpend> => {
    const kept = held.get(key);
    const current = kept !== undefined && kept.resetAt > now ? kept : undefined;
    if (current !== undefined && current.left > 0) {
      current.left -= 1;
      const used = current.nextUsed;
      current.nextUsed += 1;
      return { allowed: true, used, resetAt: current.resetAt };
    }
    const amount =
      current === undefined
        ? 1
        : Math.max(
            1,
            Math.min(RESERVED_AT_MOST, Math.floor((limit - current.seen) / RESERVED_SHARE)),
          );
    const answer = await counters.spendUpTo(key, amount, limit, windowMs, now);
    if (!answer.allowed) return answer;
    // Below the limit every unit asked for was given; at it maybe fewer: counted as one, the
    // others lost rather than risk handing out one too many.
    const given = answer.used < limit ? amount : 1;
    const used = answer.used - given + 1;
    const again = held.get(key);
    if (again !== undefined && again.resetAt === answer.resetAt && again.left > 0) {
      // Another spend of this process took units meanwhile: both are held.
      addToHeld(again, given - 1, answer.used);
    } else {
      held.set(key, {
        resetAt: answer.resetAt,
        left: given - 1,
        nextUsed: used + 1,
        seen: answer.used,
      });
    }
    return { allowed: true, used, resetAt: answer.resetAt };
  };
}
