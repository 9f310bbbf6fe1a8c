// Email confirmation: the link of the confirmation mail confirms the address it was sent to;
// POST /api/v1/emails/confirmations sends the mail again, to a new address if given (Mastodon's
// rules: only for the app the user signed up with, only while unconfirmed).

import { AppError, forbidden } from "../../domain/errors.ts";
import type { User } from "../../domain/user.ts";
import { isConfirmed } from "../../domain/user.ts";
import type { ServiceContext } from "../context.ts";
import { emailLockKey, validateEmail } from "./create-local-account.ts";
import { takeMailToken } from "./mail-tokens.ts";
import { enqueueAccountMail } from "./send-account-mail.ts";
import { startValidation } from "./validation.ts";

export const CONFIRMATION_LINK_INVALID = "This confirmation link is invalid or has expired.";

/** Confirms the address of the link's account; the link is spent. */
export async function confirmEmail(ctx: ServiceContext, token: string): Promise<User> {
  const record = await takeMailToken(ctx, "confirmation", token);
  const user = record ? await ctx.storage.users.get(record.accountId) : undefined;
  if (!record || !user || user.email !== record.email) {
    throw new AppError(404, CONFIRMATION_LINK_INVALID);
  }
  if (isConfirmed(user)) return user;
  const confirmed: User = { ...user, confirmed: true };
  await ctx.storage.users.put(confirmed);
  return confirmed;
}

export async function resendConfirmation(
  ctx: ServiceContext,
  user: User,
  appId: string,
  email: string | undefined,
): Promise<void> {
  if (user.createdByAppId !== appId) {
    throw forbidden(
      "This method is only available to the application the user originally signed-up with",
    );
  }
  if (isConfirmed(user)) {
    throw forbidden("This method is only available while the e-mail is awaiting confirmation");
  }
  let current = user;
  if (email !== undefined && email.trim().toLowerCase() !== user.email.toLowerCase()) {
    current = { ...user, email: email.trim() };
    const changed = current;
    // The same lock as a sign-up's for this address: two users cannot both take it.
    await ctx.storage.coordination.withLock(emailLockKey(email), async () => {
      const validation = startValidation();
      await validateEmail(ctx, email, validation);
      validation.check();
      await ctx.storage.users.put(changed);
    });
  }
  await enqueueAccountMail(ctx, "confirmation", current.accountId);
}
