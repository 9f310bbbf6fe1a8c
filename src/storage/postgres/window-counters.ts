// Rate-limit counters and action budgets shared by every process (coordination_counters): one
// fixed window per key, counted by a single upsert so concurrent hits from any process add up
// exactly, and a budget spent by a single conditional upsert (the row lock orders racing spends;
// nobody retries). Finished windows are deleted now and then by whichever process counts.

import { getLogger } from "@logtape/logtape";
import type { BudgetSpend, Coordination } from "../ports.ts";
import type { Sql } from "./connect.ts";

const logger = getLogger(["wren", "storage", "counters"]);

/** How often (ms on the callers' clock) finished windows are swept. */
const SWEEP_EVERY_MS = 60_000;

export type WindowCounters = Pick<Coordination, "count" | "spend" | "refund">;

export function createWindowCounters(sql: Sql): WindowCounters {
  let sweptAt = Number.NEGATIVE_INFINITY;

  function sweep(now: number): void {
    if (now - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = now;
    sql`delete from coordination_counters where reset_at <= ${now}`.catch((error: unknown) =>
      logger.warn("Could not sweep finished rate-limit windows: {error}", { error }),
    );
  }

  async function count(key: string, amount: number, windowMs: number, now: number) {
    sweep(now);
    if (amount === 0) {
      const [row] = await sql<{ used: string; reset_at: string }[]>`
        select used, reset_at from coordination_counters where key = ${key} and reset_at > ${now}`;
      return row
        ? { used: Number(row.used), resetAt: Number(row.reset_at) }
        : { used: 0, resetAt: now + windowMs };
    }
    // A finished window restarts at `now`; the SET expressions all read the row as it was.
    const [row] = await sql<{ used: string; reset_at: string }[]>`
      insert into coordination_counters as c (key, used, reset_at)
      values (${key}, ${amount}, ${now + windowMs})
      on conflict (key) do update set
        used = case when c.reset_at <= ${now} then excluded.used else c.used + excluded.used end,
        reset_at = case when c.reset_at <= ${now} then excluded.reset_at else c.reset_at end
      returning used, reset_at`;
    if (!row) throw new Error("The counter upsert returned no row");
    return { used: Number(row.used), resetAt: Number(row.reset_at) };
  }

  async function spend(
    key: string,
    limit: number,
    windowMs: number,
    now: number,
  ): Promise<BudgetSpend> {
    if (limit <= 0) return { allowed: false, ...(await count(key, 0, windowMs, now)) };
    sweep(now);
    // Counts only where the window has ended or still has room: no row back means refused.
    const [row] = await sql<{ used: string; reset_at: string }[]>`
      insert into coordination_counters as c (key, used, reset_at)
      values (${key}, 1, ${now + windowMs})
      on conflict (key) do update set
        used = case when c.reset_at <= ${now} then 1 else c.used + 1 end,
        reset_at = case when c.reset_at <= ${now} then excluded.reset_at else c.reset_at end
      where c.reset_at <= ${now} or c.used < ${limit}
      returning used, reset_at`;
    if (row) return { allowed: true, used: Number(row.used), resetAt: Number(row.reset_at) };
    return { allowed: false, ...(await count(key, 0, windowMs, now)) };
  }

  async function refund(key: string, resetAt: number): Promise<void> {
    await sql`
      update coordination_counters set used = used - 1
      where key = ${key} and reset_at = ${resetAt} and used > 0`;
  }

  return { count, spend, refund };
}
