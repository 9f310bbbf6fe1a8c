// Per-account action budgets on the routes that create things (Mastodon: 300 statuses per 3
// hours, 30 media uploads per 30 minutes). The unit is taken before the handler runs and given
// back when the action fails, so only what was made counts and concurrent requests cannot
// overdraw. Counted in storage (services/limits/action-budget.ts): shared by every process and
// kept across restarts. Requests without a user token pass; the route's access guard answers.

import type { MiddlewareHandler } from "hono";
import { tooManyRequests } from "../../domain/errors.ts";
import type { ServiceContext } from "../../services/context.ts";
import { type BudgetRule, refundBudget, spendBudget } from "../../services/limits/action-budget.ts";
import type { HttpEnv } from "../env.ts";
import { verifiedCaller } from "./caller.ts";
import { setResponseHeaders } from "./response-headers.ts";

export interface BudgetedRoute {
  method: string;
  /** The route's path; a trailing slash is the same route. */
  path: RegExp;
  rule: BudgetRule;
}

export function accountBudgets(
  ctx: ServiceContext,
  routes: readonly BudgetedRoute[],
): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const route = routes.find((r) => r.method === c.req.method && r.path.test(c.req.path));
    if (!route) return next();
    const account = (await verifiedCaller(c, ctx))?.account;
    if (!account) return next();
    const spent = await spendBudget(ctx, route.rule, account.id);
    const headers = {
      "X-RateLimit-Limit": String(spent.limit),
      "X-RateLimit-Remaining": String(spent.remaining),
      "X-RateLimit-Reset": spent.resetAt.toISOString(),
    };
    if (!spent.allowed) {
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      throw tooManyRequests("Too many requests");
    }
    try {
      await next();
    } catch (error) {
      await refundBudget(ctx, route.rule, account.id, spent.resetAt);
      throw error;
    }
    if (c.res.status >= 400) await refundBudget(ctx, route.rule, account.id, spent.resetAt);
    else setResponseHeaders(c, headers);
  };
}
