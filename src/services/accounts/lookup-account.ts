// GET /api/v1/accounts/lookup: an account this server knows, by `user`, `@user` or
// `user@host`. No WebFinger resolution (Mastodon skips it here too). A suspended account is
// found, shown as suspended, as Mastodon's lookup does.

import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";
import { shownAccount } from "./listed-account.ts";

/** Splits `user`, `@user`, `user@host` or `@user@host`; our own host means a local account. */
export function parseAcct(
  ctx: ServiceContext,
  acct: string,
): { username: string; domain: string | null } | null {
  const trimmed = acct.trim().replace(/^@/, "");
  const at = trimmed.indexOf("@");
  const username = at === -1 ? trimmed : trimmed.slice(0, at);
  const host = at === -1 ? "" : trimmed.slice(at + 1).toLowerCase();
  if (username === "" || (at !== -1 && host === "") || host.includes("@")) return null;
  const local = host === "" || host === ctx.settings.domain.toLowerCase();
  return { username, domain: local ? null : host };
}

export async function lookupAccount(
  ctx: ServiceContext,
  acct: string,
): Promise<Account | undefined> {
  const parsed = parseAcct(ctx, acct);
  if (!parsed) return undefined;
  return shownAccount(
    ctx,
    await ctx.storage.accounts.findByUsername(parsed.username, parsed.domain),
  );
}
