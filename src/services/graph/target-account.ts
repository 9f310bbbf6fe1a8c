// The account a graph action is aimed at: every endpoint under /api/v1/accounts/:id/… answers
// 404 for an id that names no account, before any rule about the relationship is checked.

import type { Account } from "../../domain/account.ts";
import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";

export async function requireAccount(ctx: ServiceContext, accountId: string): Promise<Account> {
  const account = await ctx.storage.accounts.get(accountId);
  if (!account) throw notFound();
  return account;
}
