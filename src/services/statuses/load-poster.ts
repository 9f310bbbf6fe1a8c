// Who is posting: the local account and its user, both required (a status is posted, or
// scheduled, only by a local user); 404 when either is missing.

import type { Account } from "../../domain/account.ts";
import { notFound } from "../../domain/errors.ts";
import type { User } from "../../domain/user.ts";
import type { ServiceContext } from "../context.ts";

export async function loadPoster(
  ctx: ServiceContext,
  accountId: string,
): Promise<{ account: Account; user: User }> {
  const [account, user] = await Promise.all([
    ctx.storage.accounts.get(accountId),
    ctx.storage.users.get(accountId),
  ]);
  if (!account || !user) throw notFound();
  return { account, user };
}
