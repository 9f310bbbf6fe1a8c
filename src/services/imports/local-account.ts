// The local account an import or export is for, named by the operator.

import type { Account } from "../../domain/account.ts";
import { notFound } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";

export async function localAccountNamed(ctx: ServiceContext, username: string): Promise<Account> {
  const account = await ctx.storage.accounts.findByUsername(username, null);
  if (!account) throw notFound(`No local account named ${username}`);
  return account;
}
