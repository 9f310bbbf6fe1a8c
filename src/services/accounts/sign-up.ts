// Sign-up, from POST /api/v1/accounts (an app holding a client_credentials token) and from the
// web page /auth/sign_up, with Mastodon's rules. WREN_REGISTRATIONS decides: `open` takes
// everyone, `approval` takes a sign-up with a reason and holds it until a moderator approves it
// (`wren account approve`), `closed` takes nobody. A valid invite code lets its holder in under
// any setting, without approval. When a mail server is configured the address must be confirmed
// by a link before the account can use the API (the mail goes out from a job); without one the
// account is confirmed at once. The staff (admins and moderators) get an `admin.sign_up`
// notification for each sign-up (listeners.ts). Through the API the new user gets a token for
// the same app, with the app's scopes, as Mastodon does, even while pending or unconfirmed: the
// API then answers that token's requests 403 (http/middleware/access.ts). The admins' IP and
// email blocks apply to every sign-up, invited or not (sign-up-screen.ts).

import type { Account } from "../../domain/account.ts";
import { forbidden } from "../../domain/errors.ts";
import type { OAuthApp } from "../../domain/oauth.ts";
import type { User } from "../../domain/user.ts";
import type { ServiceContext } from "../context.ts";
import { followAccount } from "../graph/follow.ts";
import { type IssuedToken, issueAccessToken } from "../oauth/issue-access-token.ts";
import { createValidatedAccount } from "./create-local-account.ts";
import { type Invite, refundInvite, spendInvite, usableInvite } from "./invites.ts";
import { enqueueAccountMail } from "./send-account-mail.ts";
import { screenSignUp } from "./sign-up-screen.ts";

export interface SignUpInput {
  username: string;
  email: string;
  password: string;
  agreement: boolean;
  locale?: string | undefined;
  reason?: string | undefined;
  /** Mastodon's `invite_code`. */
  inviteCode?: string | undefined;
  /** The address the sign-up came from, for the IP blocks (absent: none apply). */
  ip?: string | undefined;
}

/** Mastodon's limit on the reason given for joining (InviteRequest text). */
const REASON_MAX_LENGTH = 420;

/** Whether anyone may sign up without an invite (the instance endpoints and the web pages). */
export function signUpsOpen(ctx: ServiceContext): boolean {
  return ctx.settings.registrations !== "closed";
}

/** Whether a sign-up without an invite waits for a moderator. */
export function approvalRequired(ctx: ServiceContext): boolean {
  return ctx.settings.registrations === "approval";
}

/** The invite the sign-up names, when it is usable; closed registrations need one. */
async function admittingInvite(
  ctx: ServiceContext,
  code: string | undefined,
): Promise<Invite | undefined> {
  const invite = code ? await usableInvite(ctx, code.trim()) : undefined;
  if (!invite && !signUpsOpen(ctx)) throw forbidden("This action is not allowed");
  return invite;
}

export interface SignedUp {
  account: Account;
  user: User;
}

/** Creates the account of a sign-up (API or web); see the file comment for the rules. */
export async function registerAccount(
  ctx: ServiceContext,
  input: SignUpInput,
  app: OAuthApp | null,
): Promise<SignedUp> {
  const screen = await screenSignUp(ctx, input);
  let invite = await admittingInvite(ctx, input.inviteCode);
  const reasonRequired = approvalRequired(ctx) && !invite;
  const needsApproval = reasonRequired || screen.approval;
  const reason = input.reason?.trim() ?? "";
  let spent = false;
  const { account, user } = await createValidatedAccount(
    ctx,
    {
      username: input.username,
      email: input.email,
      password: input.password,
      ...(input.locale ? { locale: input.locale } : {}),
      signUp: {
        approved: !needsApproval,
        confirmed: ctx.mailer === undefined,
        ...(reason !== "" ? { signUpReason: reason } : {}),
        ...(app ? { createdByAppId: app.id } : {}),
        ...(invite ? { inviteCode: invite.code } : {}),
      },
    },
    (validation) => {
      if (!input.agreement) validation.add("agreement", "ERR_ACCEPTED", "must be accepted");
      if (screen.emailBlocked) {
        validation.add("email", "ERR_BLOCKED", "uses a disallowed e-mail provider");
      }
      if (reasonRequired && reason === "") validation.add("reason", "ERR_BLANK", "can't be blank");
      if ([...reason].length > REASON_MAX_LENGTH) {
        validation.add(
          "reason",
          "ERR_TOO_LONG",
          `is too long (maximum is ${REASON_MAX_LENGTH} characters)`,
        );
      }
    },
    async () => {
      if (!invite) return;
      // Taken only now that the sign-up is valid: a refused form costs the invite nothing.
      invite = await spendInvite(ctx, invite.code);
      if (!invite) throw forbidden("This action is not allowed");
      spent = true;
    },
  ).catch(async (error: unknown) => {
    if (spent && invite) await refundInvite(ctx, invite.code);
    throw error;
  });

  await ctx.events.publish({ type: "account.signed_up", account });
  if (user.confirmed === false) await enqueueAccountMail(ctx, "confirmation", account.id);
  if (invite?.autofollow && invite.inviterId !== null) {
    // Best effort, as Mastodon's: an inviter who has since left simply is not followed.
    await followAccount(ctx, account.id, invite.inviterId).catch(() => undefined);
  }
  return { account, user };
}

/** POST /api/v1/accounts: the sign-up, and a token for the app that made it. */
export async function signUp(
  ctx: ServiceContext,
  app: OAuthApp,
  input: SignUpInput,
): Promise<SignedUp & { issued: IssuedToken }> {
  const { account, user } = await registerAccount(ctx, input, app);
  const issued = await issueAccessToken(ctx, {
    app,
    accountId: account.id,
    scopes: app.scopes,
    withRefreshToken: true,
  });
  return { account, user, issued };
}
