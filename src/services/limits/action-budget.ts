// Per-account budgets for actions that cost others something (Mastodon's RateLimiter: statuses,
// media): so many per fixed window, counted in the key–value store so that every process and
// every restart sees the same count. A spend is one compare-and-set, so two processes racing
// for the last unit cannot both get it; an action that then fails gives its unit back.

import type { KvEntry } from "../../storage/ports.ts";
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

interface Spent {
  used: number;
  resetAt: string;
}

/**
 * Compare-and-set attempts before giving up. Every round lets one contender through, so this
 * bounds how many concurrent spends of one account all succeed; past it the spend is refused
 * (the caller is, literally, sending too many requests).
 */
const MAX_ATTEMPTS = 200;

function keyOf(rule: BudgetRule, accountId: string): string[] {
  return ["wren", "budget", rule.family, accountId];
}

function liveValue(entry: KvEntry | undefined, now: Date): Spent | undefined {
  if (!entry || (entry.expiresAt !== null && Date.parse(entry.expiresAt) <= now.getTime())) {
    return undefined;
  }
  return entry.value as Spent;
}

/** Takes one unit of the account's budget, or answers that it is spent (taking nothing). */
export async function spendBudget(
  ctx: ServiceContext,
  rule: BudgetRule,
  accountId: string,
): Promise<BudgetAnswer> {
  const key = keyOf(rule, accountId);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const now = ctx.clock.now();
    const current = liveValue(await ctx.storage.kv.get(key), now);
    const resetAt =
      current?.resetAt ?? new Date(now.getTime() + rule.windowSeconds * 1000).toISOString();
    const used = current?.used ?? 0;
    const answer = { limit: rule.limit, resetAt: new Date(resetAt) };
    if (used >= rule.limit) return { ...answer, allowed: false, remaining: 0 };
    const next: Spent = { used: used + 1, resetAt };
    const wrote = await ctx.storage.kv.compareAndSet(
      current,
      { key, value: next, expiresAt: resetAt },
      now.toISOString(),
    );
    if (wrote) return { ...answer, allowed: true, remaining: rule.limit - next.used };
  }
  const resetAt = new Date(ctx.clock.now().getTime() + rule.windowSeconds * 1000);
  return { allowed: false, limit: rule.limit, remaining: 0, resetAt };
}

/** Gives back a unit taken for an action that did not happen (same window only). */
export async function refundBudget(
  ctx: ServiceContext,
  rule: BudgetRule,
  accountId: string,
  resetAt: Date,
): Promise<void> {
  const key = keyOf(rule, accountId);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const now = ctx.clock.now();
    const current = liveValue(await ctx.storage.kv.get(key), now);
    if (!current || current.used === 0 || Date.parse(current.resetAt) !== resetAt.getTime()) {
      return;
    }
    const next: Spent = { used: current.used - 1, resetAt: current.resetAt };
    const entry = { key, value: next, expiresAt: current.resetAt };
    if (await ctx.storage.kv.compareAndSet(current, entry, now.toISOString())) return;
  }
}
