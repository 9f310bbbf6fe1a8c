// The secrets that mails carry: email confirmation and password reset links. Each is a random
// token handed out once, in the mail, and kept only as its hash in storage.kv (with its expiry),
// next to the account and the address it was sent to. A token is spent by taking it: of two
// simultaneous uses, in any process, only one removes the entry and succeeds.

import { hashSecret, newSecret } from "../auth/secrets.ts";
import type { ServiceContext } from "../context.ts";

export type MailTokenPurpose = "confirmation" | "password-reset";

/** Mastodon (Devise): confirmation links work for a day, reset links for six hours. */
const LIFETIME_MS: Record<MailTokenPurpose, number> = {
  confirmation: 24 * 3600_000,
  "password-reset": 6 * 3600_000,
};

interface MailTokenRecord {
  accountId: string;
  /** The address the link went to: a link sent to an address since replaced confirms nothing. */
  email: string;
}

const keyOf = (purpose: MailTokenPurpose, secret: string) => [
  "mail-tokens",
  purpose,
  hashSecret(secret),
];

function isRecord(value: unknown): value is MailTokenRecord {
  const v = value as Partial<MailTokenRecord> | null;
  return typeof v?.accountId === "string" && typeof v.email === "string";
}

export async function issueMailToken(
  ctx: ServiceContext,
  purpose: MailTokenPurpose,
  record: MailTokenRecord,
): Promise<string> {
  const secret = newSecret();
  const expiresAt = new Date(ctx.clock.now().getTime() + LIFETIME_MS[purpose]).toISOString();
  await ctx.storage.kv.set({ key: keyOf(purpose, secret), value: record, expiresAt });
  return secret;
}

/** The token's record while it is valid, without spending it (to show the reset form). */
export async function peekMailToken(
  ctx: ServiceContext,
  purpose: MailTokenPurpose,
  secret: string,
): Promise<MailTokenRecord | undefined> {
  if (secret === "") return undefined;
  const entry = await ctx.storage.kv.get(keyOf(purpose, secret));
  if (!entry || !isRecord(entry.value)) return undefined;
  if (entry.expiresAt !== null && entry.expiresAt <= ctx.clock.now().toISOString()) {
    return undefined;
  }
  return entry.value;
}

/** Spends the token: its record when it was valid and this call removed it. */
export async function takeMailToken(
  ctx: ServiceContext,
  purpose: MailTokenPurpose,
  secret: string,
): Promise<MailTokenRecord | undefined> {
  const record = await peekMailToken(ctx, purpose, secret);
  if (!record) return undefined;
  return (await ctx.storage.kv.delete(keyOf(purpose, secret))) ? record : undefined;
}
