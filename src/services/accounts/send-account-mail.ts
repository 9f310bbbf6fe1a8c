// The mails of an account's sign-in: the confirmation of its address and the password reset.
// Requests only put a job on the durable queue; the job makes the link's token and hands the
// mail to the mail server, and a failed send is retried with the queue's backoff. The token is
// made when the mail is written, so a secret never rests in the queue: a retry after a send the
// server refused makes a new one, and the unsent one expires unused.

import { getLogger } from "@logtape/logtape";
import { isConfirmed } from "../../domain/user.ts";
import type { ServiceContext } from "../context.ts";
import { issueMailToken, type MailTokenPurpose } from "./mail-tokens.ts";

const logger = getLogger(["wren", "mail"]);

export const ACCOUNT_MAIL_JOB = "mail.account";

export type AccountMailKind = MailTokenPurpose;

export async function enqueueAccountMail(
  ctx: ServiceContext,
  kind: AccountMailKind,
  accountId: string,
): Promise<void> {
  await ctx.jobs.enqueue(ACCOUNT_MAIL_JOB, { kind, accountId });
}

function confirmationText(title: string, username: string, link: string): string {
  return `Hello ${username},

Someone (hopefully you) signed up on ${title} with this address. To confirm it, open:

${link}

The link works for 24 hours. If it was not you, ignore this mail: the account stays unusable.
`;
}

function resetText(title: string, username: string, link: string): string {
  return `Hello ${username},

Someone (hopefully you) asked to change the password of your account on ${title}. To choose a
new password, open:

${link}

The link works once, for 6 hours. If you did not ask, ignore this mail: your password stays as it is.
`;
}

/** The job: writes and sends one mail. Nothing to do once it no longer applies. */
export async function sendAccountMail(
  ctx: ServiceContext,
  payload: Record<string, unknown>,
): Promise<void> {
  const { kind, accountId } = payload;
  if (typeof accountId !== "string" || (kind !== "confirmation" && kind !== "password-reset")) {
    return;
  }
  const [account, user] = await Promise.all([
    ctx.storage.accounts.get(accountId),
    ctx.storage.users.get(accountId),
  ]);
  // Rejected or removed since, or confirmed by an earlier mail of a resend.
  if (!account || !user || user.disabled) return;
  if (kind === "confirmation" && isConfirmed(user)) return;
  if (!ctx.mailer) {
    logger.warn(
      "No mail server is configured (WREN_SMTP_URL): the {kind} mail to {username} is not sent",
      {
        kind,
        username: account.username,
      },
    );
    return;
  }
  const { publicUrl, title } = ctx.settings;
  const secret = await issueMailToken(ctx, kind, { accountId, email: user.email });
  if (kind === "confirmation") {
    await ctx.mailer.send({
      to: user.email,
      subject: `Confirm your email address on ${title}`,
      text: confirmationText(
        title,
        account.username,
        `${publicUrl}/auth/confirmation?confirmation_token=${secret}`,
      ),
    });
  } else {
    await ctx.mailer.send({
      to: user.email,
      subject: `Reset your password on ${title}`,
      text: resetText(
        title,
        account.username,
        `${publicUrl}/auth/password/edit?reset_password_token=${secret}`,
      ),
    });
  }
}
