// What the admins' blocks say of a sign-up, as Mastodon applies them: an IP block of severity
// sign_up_block (or no_access) refuses it (403); sign_up_requires_approval holds it for a
// moderator; an email domain block refuses the address (a 422 on `email`) unless it allows with
// approval, which holds it; a canonical email block refuses the address.

import { forbidden } from "../../domain/errors.ts";
import { screenEmail } from "../address-blocks/email-blocks.ts";
import { ipBlockSeverities } from "../address-blocks/ip-blocks.ts";
import type { ServiceContext } from "../context.ts";

export interface SignUpScreen {
  /** The sign-up must wait for a moderator, whatever the registrations setting. */
  approval: boolean;
  /** The address is refused (a validation error on `email`). */
  emailBlocked: boolean;
}

export async function screenSignUp(
  ctx: ServiceContext,
  input: { email: string; ip?: string | undefined },
): Promise<SignUpScreen> {
  const severities = input.ip ? await ipBlockSeverities(ctx, input.ip) : new Set<string>();
  if (severities.has("sign_up_block") || severities.has("no_access")) {
    throw forbidden("This action is not allowed");
  }
  const email = input.email.includes("@") ? await screenEmail(ctx, input.email) : "ok";
  return {
    approval: severities.has("sign_up_requires_approval") || email === "approval",
    emailBlocked: email === "refuse",
  };
}
