// Per-account budgets for actions that cost others something (Mastodon's RateLimiter: statuses,
// media): so many per fixed window, kept by the storage's coordination (Coordination.spend) so
// that every process and every restart sees the same count. A spend is one atomic step, so two
// processes racing for the last unit cannot both get it; an action that then fails gives its
// unit back.

import type { ServiceContext } from "../context.ts";

export interface BudgetRule {
  /** What the budget is for, part of its key: `statuses`, `media`. */
  family: string;
  limit: number;
  windowSeconds: number;
}

export interface BudgetAnswer {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAt: Date;
}

const keyOf = (rule: BudgetRule, accountId: string) => `${rule.family}:${accountId}`;

/** Takes one unit of the account's budget, or answers that it is spent (taking nothing). */
export async function spendBudget(
  ctx: ServiceContext,
  rule: BudgetRule,
  accountId: string,
): Promise<BudgetAnswer> {
  const now = ctx.clock.now().getTime();
  const spent = await ctx.storage.coordination.spend(
    keyOf(rule, accountId),
    rule.limit,
    rule.windowSeconds * 1000,
    now,
  );
  return {
    allowed: spent.allowed,
    limit: rule.limit,
    remaining: spent.allowed ? Math.max(rule.limit - spent.used, 0) : 0,
    resetAt: new Date(spent.resetAt),
  };
}

/** Gives back a unit taken for an action that did not happen (same window only). */
export async function refundBudget(
  ctx: ServiceContext,
  rule: BudgetRule,
  accountId: string,
  resetAt: Date,
): Promise<void> {
  await ctx.storage.coordination.refund(keyOf(rule, accountId), resetAt.getTime());
}
