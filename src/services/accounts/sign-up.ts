// POST /api/v1/accounts: an app (holding a client_credentials token) registers a person. Open
// registrations only: approval-mode sign-ups need a moderation queue Wren does not have yet, so
// they are refused like closed ones (and the instance endpoints say so). The new user gets a
// token for the same app, with the app's scopes, as Mastodon does.

import type { Account } from "../../domain/account.ts";
import { forbidden } from "../../domain/errors.ts";
import type { OAuthApp } from "../../domain/oauth.ts";
import type { User } from "../../domain/user.ts";
import type { ServiceContext } from "../context.ts";
import { type IssuedToken, issueAccessToken } from "../oauth/issue-access-token.ts";
import { createValidatedAccount } from "./create-local-account.ts";

export interface SignUpInput {
  username: string;
  email: string;
  password: string;
  agreement: boolean;
  locale?: string | undefined;
  reason?: string | undefined;
}

/** Whether POST /api/v1/accounts accepts sign-ups under these settings. */
export function signUpsOpen(ctx: ServiceContext): boolean {
  return ctx.settings.registrations === "open";
}

export async function signUp(
  ctx: ServiceContext,
  app: OAuthApp,
  input: SignUpInput,
): Promise<{ account: Account; user: User; issued: IssuedToken }> {
  if (!signUpsOpen(ctx)) throw forbidden("This action is not allowed");
  const { account, user } = await createValidatedAccount(
    ctx,
    {
      username: input.username,
      email: input.email,
      password: input.password,
      ...(input.locale ? { locale: input.locale } : {}),
    },
    (validation) => {
      if (!input.agreement) validation.add("agreement", "ERR_ACCEPTED", "must be accepted");
    },
  );
  const issued = await issueAccessToken(ctx, {
    app,
    accountId: account.id,
    scopes: app.scopes,
    withRefreshToken: true,
  });
  return { account, user, issued };
}
