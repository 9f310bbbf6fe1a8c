// Rate-limit counters and action budgets shared by every process (coordination_counters): one
// fixed window per key, counted by a single upsert (committed without waiting for the disk:
// asyncCommit below) so concurrent hits from any process add up exactly, and a budget spent by a single conditional upsert (the row lock orders racing spends;
// nobody retries). Finished windows are deleted now and then by whichever process counts.

import { getLogger } from "@logtape/logtape";
import type { BudgetSpend, Coordination, CounterHit } from "../ports.ts";
import type { Sql } from "./connect.ts";

const logger = getLogger(["wren", "storage", "counters"]);

/** How often (ms on the callers' clock) finished windows are swept. */
const SWEEP_EVERY_MS = 60_000;

type Row = { used: string; reset_at: string };

export type WindowCounters = Pick<Coordination, "count" | "countInTurn" | "spend" | "refund"> & {
  /**
   * A budget spend of up to `amount` units (budget-reservations.ts): as `spend`, but an allowed
   * spend takes `amount`, or what the window has left if less (at least one unit).
   */
  spendUpTo(
    key: string,
    amount: number,
    limit: number,
    windowMs: number,
    now: number,
  ): Promise<BudgetSpend>;
};

export function createWindowCounters(sql: Sql): WindowCounters {
  let sweptAt = Number.NEGATIVE_INFINITY;

  function sweep(now: number): void {
    if (now - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = now;
    sql`delete from coordination_counters where reset_at <= ${now}`.catch((error: unknown) =>
      logger.warn("Could not sweep finished rate-limit windows: {error}", { error }),
    );
  }

  /**
   * A one-row FROM that commits the statement without waiting for its WAL to reach the disk
   * (synchronous_commit off for this statement's own transaction only; ADR 0054). Rate-limit
   * counts only: a crash of the database server may lose the last fraction of a second of them
   * (callers get those requests again), never a record, and the counts no longer queue behind
   * other processes' fsyncs. Budgets (spendUpTo) stay durable.
   */
  const asyncCommit = sql`from (select set_config('synchronous_commit', 'off', true)) as async_commit`;

  /** The window of a counted row. */
  const windowOf = (row: Row) => ({ used: Number(row.used), resetAt: Number(row.reset_at) });

  /**
   * What a hit does to its row: a finished window restarts at `now`; SET reads the old row. A
   * reservable hit (`limit` given) adds at most what the window has left, at least one unit.
   */
  const onConflict = (now: number, limit?: number) => sql`
    on conflict (key) do update set
      used = case when c.reset_at <= ${now} then excluded.used
        else c.used + ${
          limit === undefined
            ? sql`excluded.used`
            : sql`greatest(1, least(excluded.used, ${limit}::bigint - c.used))`
        } end,
      reset_at = case when c.reset_at <= ${now} then excluded.reset_at else c.reset_at end
    returning used, reset_at`;

  async function count(key: string, amount: number, windowMs: number, now: number) {
    sweep(now);
    if (amount === 0) {
      const [row] = await sql<Row[]>`
        select used, reset_at from coordination_counters where key = ${key} and reset_at > ${now}`;
      return row ? windowOf(row) : { used: 0, resetAt: now + windowMs };
    }
    const [row] = await sql<Row[]>`
      insert into coordination_counters as c (key, used, reset_at)
      select ${key}::text, ${amount}::bigint, ${now + windowMs}::bigint ${asyncCommit}
      ${onConflict(now)}`;
    if (!row) throw new Error("The counter upsert returned no row");
    return windowOf(row);
  }

  /**
   * One statement: an upsert per hit, chained as common table expressions, each inserting only
   * while the one before stayed within its limit (a skipped upsert returns no row, so the rest
   * of the chain skips too).
   */
  async function countInTurn(hits: readonly CounterHit[], now: number) {
    if (hits.length === 0) return [];
    // One hit (an anonymous request's only limit) needs no chain: the plain upsert.
    if (hits.length === 1 && !hits[0]?.reservable) {
      const [hit] = hits as [CounterHit];
      return [await count(hit.key, hit.amount, hit.windowMs, now)];
    }
    sweep(now);
    const steps = hits.map((hit, i) => {
      const previous = hits[i - 1];
      const guard = previous
        ? sql`where (select used from ${sql(`hit${i - 1}`)}) <= ${previous.limit}::bigint`
        : sql``;
      // A new window takes at most the limit too (at least one unit).
      const amount = hit.reservable ? Math.max(1, Math.min(hit.amount, hit.limit)) : hit.amount;
      return sql`${sql(`hit${i}`)} as (
        insert into coordination_counters as c (key, used, reset_at)
        select ${hit.key}::text, ${amount}::bigint, ${now + hit.windowMs}::bigint
          ${i === 0 ? asyncCommit : sql``} ${guard}
        ${onConflict(now, hit.reservable ? hit.limit : undefined)}
      )`;
    });
    const results = hits.map(
      (_, i) => sql`select ${i}::int as n, used, reset_at from ${sql(`hit${i}`)}`,
    );
    const rows = await sql<(Row & { n: number })[]>`
      with ${steps.reduce((all, step) => sql`${all}, ${step}`)}
      ${results.reduce((all, result) => sql`${all} union all ${result}`)}`;
    return rows.sort((a, b) => a.n - b.n).map(windowOf);
  }

  async function spendUpTo(
    key: string,
    amount: number,
    limit: number,
    windowMs: number,
    now: number,
  ): Promise<BudgetSpend> {
    if (limit <= 0) return { allowed: false, ...(await count(key, 0, windowMs, now)) };
    sweep(now);
    const first = Math.max(1, Math.min(amount, limit));
    // Counts only where the window has ended or still has room: no row back means refused.
    const [row] = await sql<{ used: string; reset_at: string }[]>`
      insert into coordination_counters as c (key, used, reset_at)
      values (${key}, ${first}, ${now + windowMs})
      on conflict (key) do update set
        used = case when c.reset_at <= ${now} then excluded.used
          else c.used + least(${amount}::bigint, ${limit}::bigint - c.used) end,
        reset_at = case when c.reset_at <= ${now} then excluded.reset_at else c.reset_at end
      where c.reset_at <= ${now} or c.used < ${limit}
      returning used, reset_at`;
    if (row) return { allowed: true, used: Number(row.used), resetAt: Number(row.reset_at) };
    return { allowed: false, ...(await count(key, 0, windowMs, now)) };
  }

  const spend = (key: string, limit: number, windowMs: number, now: number) =>
    spendUpTo(key, 1, limit, windowMs, now);

  async function refund(key: string, resetAt: number): Promise<void> {
    await sql`
      update coordination_counters set used = used - 1
      where key = ${key} and reset_at = ${resetAt} and used > 0`;
  }

  return { count, countInTurn, spend, spendUpTo, refund };
}
