// Sign-in with a login (email address or username) and a password. Unknown logins cost the same
// scrypt work as known ones, so response times do not tell which accounts exist.

import type { Account } from "../../domain/account.ts";
import type { User } from "../../domain/user.ts";
import type { ServiceContext } from "../context.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";

/** By cost (WREN_PASSWORD_HASH_COST): one per process in practice. */
const dummyHashes = new Map<number | undefined, Promise<string>>();

/**
 * A real hash of a throwaway password at the cost new hashes get, made once, to verify against
 * for unknown logins.
 */
function dummy(ctx: ServiceContext): Promise<string> {
  const cost = ctx.settings.passwordHashCost;
  let hash = dummyHashes.get(cost);
  if (!hash) {
    hash = hashPassword("wren-dummy-password-for-timing", cost);
    dummyHashes.set(cost, hash);
  }
  return hash;
}

/** The user a login names: an email address, or `alice`, `@alice` or `alice@our.domain`. */
export async function findUserByLogin(
  ctx: ServiceContext,
  login: string,
): Promise<User | undefined> {
  if (login.includes("@") && !login.startsWith("@")) {
    const byEmail = await ctx.storage.users.findByEmail(login);
    if (byEmail) return byEmail;
  }
  // `alice`, `@alice` and `alice@our.domain` all name the local account alice.
  let username = login.replace(/^@/, "");
  const at = username.indexOf("@");
  if (at >= 0) {
    if (username.slice(at + 1).toLowerCase() !== ctx.settings.domain.toLowerCase())
      return undefined;
    username = username.slice(0, at);
  }
  if (username === "") return undefined;
  const account = await ctx.storage.accounts.findByUsername(username, null);
  return account ? ctx.storage.users.get(account.id) : undefined;
}

export async function authenticatePassword(
  ctx: ServiceContext,
  input: { login: string; password: string },
): Promise<{ account: Account; user: User } | null> {
  const login = input.login.trim();
  const user = login === "" ? undefined : await findUserByLogin(ctx, login);
  if (!user) {
    await verifyPassword(input.password, await dummy(ctx));
    return null;
  }
  const matches = await verifyPassword(input.password, user.passwordHash);
  if (!matches || user.disabled) return null;
  const account = await ctx.storage.accounts.get(user.accountId);
  return account ? { account, user } : null;
}
