// Loads account views and serialises them for the client API: the one way route modules turn
// Account records into Mastodon JSON (statuses, notifications and follows embed accounts too).

import type { Account } from "../../domain/account.ts";
import type { User } from "../../domain/user.ts";
import {
  type AccountJson,
  type CredentialAccountJson,
  serializeAccount,
  serializeCredentialAccount,
  type UrlContext,
} from "../../serialization/mastodon/account.ts";
import type { ServiceContext } from "../../services/context.ts";
import {
  loadAccountView,
  loadAccountViews,
  loadCredentialAccountView,
} from "../../views/account-view.ts";

export function urlContext(ctx: ServiceContext): UrlContext {
  return { publicUrl: ctx.settings.publicUrl, fileUrl: (key) => ctx.files.url(key) };
}

export async function renderAccount(ctx: ServiceContext, account: Account): Promise<AccountJson> {
  return serializeAccount(await loadAccountView(ctx, account), urlContext(ctx));
}

export async function renderAccounts(
  ctx: ServiceContext,
  accounts: readonly Account[],
): Promise<AccountJson[]> {
  const urls = urlContext(ctx);
  return (await loadAccountViews(ctx, accounts)).map((view) => serializeAccount(view, urls));
}

export async function renderCredentialAccount(
  ctx: ServiceContext,
  account: Account,
  user: User,
): Promise<CredentialAccountJson> {
  return serializeCredentialAccount(
    await loadCredentialAccountView(ctx, account, user),
    urlContext(ctx),
  );
}
