// Invite links (`wren invite create`, `/invite/CODE`): a code that lets someone sign up even when
// registrations are closed or need approval. Kept in storage.kv, one entry per code: there are
// few, and every read is by code. A use is counted by a compare-and-set of the entry, so the
// last use of an invite goes to exactly one sign-up, whichever process serves it.

import { randomBytes } from "node:crypto";
import { notFound, unprocessable } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";

export interface Invite {
  code: string;
  createdAt: string;
  /** Null: never expires. */
  expiresAt: string | null;
  /** Null: unlimited. */
  maxUses: number | null;
  uses: number;
  /** The new account follows the inviting user. */
  autofollow: boolean;
  /** The local user who invites (null: the operator). */
  inviterId: string | null;
  revokedAt: string | null;
}

const PREFIX = ["invites"];
const CODE_ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const CODE_PATTERN = /^[A-Za-z0-9]{1,64}$/;

/** Eight characters from an alphabet without look-alikes (Mastodon's codes are eight long). */
function newCode(): string {
  const bytes = randomBytes(8);
  let code = "";
  for (const byte of bytes) code += CODE_ALPHABET[byte % CODE_ALPHABET.length];
  return code;
}

function isInvite(value: unknown): value is Invite {
  const v = value as Partial<Invite> | null;
  return typeof v?.code === "string" && typeof v.uses === "number";
}

export function inviteUsable(invite: Invite, now: Date): boolean {
  if (invite.revokedAt !== null) return false;
  if (invite.expiresAt !== null && invite.expiresAt <= now.toISOString()) return false;
  return invite.maxUses === null || invite.uses < invite.maxUses;
}

export async function createInvite(
  ctx: ServiceContext,
  options: {
    maxUses?: number | undefined;
    expiresInMs?: number | undefined;
    autofollow?: boolean;
    inviter?: string | undefined;
  },
): Promise<Invite> {
  let inviterId: string | null = null;
  if (options.inviter !== undefined) {
    const username = options.inviter.trim().replace(/^@/, "");
    const account = await ctx.storage.accounts.findByUsername(username, null);
    if (!account || !(await ctx.storage.users.get(account.id))) {
      throw notFound(`No local account named ${username}`);
    }
    inviterId = account.id;
  }
  if (options.autofollow && inviterId === null) {
    throw unprocessable("An invite that makes its users follow someone needs an inviting user");
  }
  const now = ctx.clock.now();
  const invite: Invite = {
    code: newCode(),
    createdAt: now.toISOString(),
    expiresAt:
      options.expiresInMs === undefined
        ? null
        : new Date(now.getTime() + options.expiresInMs).toISOString(),
    maxUses: options.maxUses ?? null,
    uses: 0,
    autofollow: options.autofollow === true,
    inviterId,
    revokedAt: null,
  };
  // A fresh random code: 56^8 of them, so a collision is not worth a retry loop.
  await ctx.storage.kv.set({ key: [...PREFIX, invite.code], value: invite, expiresAt: null });
  return invite;
}

export async function findInvite(ctx: ServiceContext, code: string): Promise<Invite | undefined> {
  if (!CODE_PATTERN.test(code)) return undefined;
  const entry = await ctx.storage.kv.get([...PREFIX, code]);
  return entry && isInvite(entry.value) ? entry.value : undefined;
}

/** The invite when it can still be used now. */
export async function usableInvite(ctx: ServiceContext, code: string): Promise<Invite | undefined> {
  const invite = await findInvite(ctx, code);
  return invite && inviteUsable(invite, ctx.clock.now()) ? invite : undefined;
}

/** Every invite, newest first. */
export async function listInvites(ctx: ServiceContext): Promise<Invite[]> {
  const entries = await ctx.storage.kv.list(PREFIX);
  return entries
    .map((e) => e.value)
    .filter(isInvite)
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}

export async function revokeInvite(ctx: ServiceContext, code: string): Promise<Invite> {
  for (;;) {
    const invite = await findInvite(ctx, code);
    if (!invite) throw notFound(`No invite ${code}`);
    if (invite.revokedAt !== null) return invite;
    const next = { ...invite, revokedAt: ctx.clock.now().toISOString() };
    if (await swap(ctx, invite, next)) return next;
  }
}

function swap(ctx: ServiceContext, current: Invite, next: Invite): Promise<boolean> {
  return ctx.storage.kv.compareAndSet(
    current,
    { key: [...PREFIX, next.code], value: next, expiresAt: null },
    ctx.clock.now().toISOString(),
  );
}

/**
 * Counts one use, unless the invite is no longer usable (used up, expired or revoked, perhaps
 * by a sign-up that won the race): the invite as used, or undefined.
 */
export async function spendInvite(ctx: ServiceContext, code: string): Promise<Invite | undefined> {
  for (;;) {
    const invite = await findInvite(ctx, code);
    if (!invite || !inviteUsable(invite, ctx.clock.now())) return undefined;
    const next = { ...invite, uses: invite.uses + 1 };
    if (await swap(ctx, invite, next)) return next;
  }
}

/** Gives a use back (the sign-up that took it failed afterwards). */
export async function refundInvite(ctx: ServiceContext, code: string): Promise<void> {
  for (;;) {
    const invite = await findInvite(ctx, code);
    if (!invite || invite.uses === 0) return;
    if (await swap(ctx, invite, { ...invite, uses: invite.uses - 1 })) return;
  }
}
