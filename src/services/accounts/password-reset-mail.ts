// Password reset by mail ("Forgot your password?" on the sign-in page): asking sends a mail with
// a single-use link (send-account-mail.ts); the link's page sets the new password. Asking for an
// unknown address looks the same as for a known one, so the form does not tell who has an
// account here.

import { AppError } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { validatePassword } from "./create-local-account.ts";
import { peekMailToken, takeMailToken } from "./mail-tokens.ts";
import { setPassword } from "./reset-password.ts";
import { enqueueAccountMail } from "./send-account-mail.ts";
import { startValidation } from "./validation.ts";

export async function requestPasswordReset(ctx: ServiceContext, email: string): Promise<void> {
  const address = email.trim();
  if (address === "" || !ctx.mailer) return;
  const user = await ctx.storage.users.findByEmail(address);
  if (!user || user.disabled) return;
  await enqueueAccountMail(ctx, "password-reset", user.accountId);
}

/** Whether the reset link is still good (to show its form; the form's post spends it). */
export async function resetTokenValid(ctx: ServiceContext, token: string): Promise<boolean> {
  return (await peekMailToken(ctx, "password-reset", token)) !== undefined;
}

export const RESET_LINK_INVALID = "This password reset link is invalid or has expired.";

/** Sets the new password with the link's token, which is spent; tokens of the user are revoked. */
export async function resetPasswordWithToken(
  ctx: ServiceContext,
  token: string,
  password: string,
): Promise<void> {
  // Checked before the token is spent: a too short password leaves the link usable.
  const validation = startValidation();
  validatePassword(validation, password);
  validation.check();
  const record = await takeMailToken(ctx, "password-reset", token);
  const [account, user] = record
    ? await Promise.all([
        ctx.storage.accounts.get(record.accountId),
        ctx.storage.users.get(record.accountId),
      ])
    : [undefined, undefined];
  // A link sent to an address the user has since replaced resets nothing.
  if (!record || !account || !user || user.email !== record.email) {
    throw new AppError(404, RESET_LINK_INVALID);
  }
  await setPassword(ctx, account, user, password);
}
