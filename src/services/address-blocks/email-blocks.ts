// Admin email blocks, checked at sign-up (sign-up-screen.ts): by domain (Mastodon's
// EmailDomainBlock: the address's domain or a parent of it; `allow_with_approval` takes the
// sign-up but holds it for a moderator) and by canonical address (CanonicalEmailBlock: the
// SHA-256 of the address lower-cased, with the dots and any +tag of its local part removed, so
// `J.Doe+x@Example.com` and `jdoe@example.com` are one). One key–value entry per block; each
// refused or held sign-up counts a use of its domain block for the day (the `history` Mastodon
// shows), in entries kept a week.

import { createHash } from "node:crypto";
import { notFound, unprocessable } from "../../domain/errors.ts";
import {
  type CanonicalEmailBlock,
  canonicalEmail,
  domainAndParents,
  type EmailDomainBlock,
  emailDomainOf,
} from "../../domain/server-blocks.ts";
import type { ServiceContext } from "../context.ts";

const DOMAINS = ["wren", "emailDomainBlock"] as const;
const USES = ["wren", "emailDomainBlockUses"] as const;
const CANONICAL = ["wren", "canonicalEmailBlock"] as const;
const DAY_MS = 86_400_000;
const HISTORY_DAYS = 7;

function newestFirst<T extends { id: string }>(items: T[]): T[] {
  return items.sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
}

function readDomainBlock(value: unknown): EmailDomainBlock | undefined {
  const v = value as Partial<EmailDomainBlock> | null | undefined;
  return v && typeof v.id === "string" && typeof v.domain === "string"
    ? (v as EmailDomainBlock)
    : undefined;
}

function readCanonical(value: unknown): CanonicalEmailBlock | undefined {
  const v = value as Partial<CanonicalEmailBlock> | null | undefined;
  return v && typeof v.id === "string" && typeof v.canonicalEmailHash === "string"
    ? (v as CanonicalEmailBlock)
    : undefined;
}

/** A mail domain in its stored form: lower case, no trailing dot, punycode; 422 otherwise. */
export function normalizeEmailDomain(domain: string): string {
  const trimmed = domain.trim().toLowerCase().replace(/\.$/, "");
  if (trimmed === "") throw unprocessable("Validation failed: Domain can't be blank");
  try {
    if (/[\s/@?#:]/.test(trimmed)) throw new Error();
    return new URL(`http://${trimmed}/`).hostname;
  } catch {
    throw unprocessable("Validation failed: Domain is not a valid domain name");
  }
}

export async function listEmailDomainBlocks(ctx: ServiceContext): Promise<EmailDomainBlock[]> {
  return newestFirst(
    (await ctx.storage.kv.list(DOMAINS)).flatMap((e) => readDomainBlock(e.value) ?? []),
  );
}

export async function getEmailDomainBlock(
  ctx: ServiceContext,
  id: string,
): Promise<EmailDomainBlock> {
  const found = (await listEmailDomainBlocks(ctx)).find((b) => b.id === id);
  if (!found) throw notFound();
  return found;
}

export async function createEmailDomainBlock(
  ctx: ServiceContext,
  domain: string | undefined,
  allowWithApproval = false,
): Promise<EmailDomainBlock> {
  const normalized = normalizeEmailDomain(domain ?? "");
  const now = ctx.clock.now().toISOString();
  const block: EmailDomainBlock = {
    id: ctx.ids.next(),
    domain: normalized,
    allowWithApproval,
    createdAt: now,
  };
  const entry = { key: [...DOMAINS, normalized], value: block, expiresAt: null };
  if (!(await ctx.storage.kv.compareAndSet(undefined, entry, now))) {
    throw unprocessable("Validation failed: Domain has already been taken");
  }
  return block;
}

export async function removeEmailDomainBlock(
  ctx: ServiceContext,
  id: string,
): Promise<EmailDomainBlock> {
  const block = await getEmailDomainBlock(ctx, id);
  await ctx.storage.kv.delete([...DOMAINS, block.domain]);
  return block;
}

/** `wren email-block remove DOMAIN`: false when it was not blocked. */
export async function unblockEmailDomain(ctx: ServiceContext, domain: string): Promise<boolean> {
  return ctx.storage.kv.delete([...DOMAINS, normalizeEmailDomain(domain)]);
}

function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** Mastodon's `history`: the last week's days, newest first, with the sign-ups each stopped. */
export async function emailDomainBlockHistory(
  ctx: ServiceContext,
  domain: string,
): Promise<{ day: number; uses: number }[]> {
  const today = dayStart(ctx.clock.now().getTime());
  const days = Array.from({ length: HISTORY_DAYS }, (_, i) => today - i * DAY_MS);
  const entries = await ctx.storage.kv.getMany(days.map((d) => [...USES, domain, String(d)]));
  return days.map((day, i) => ({ day, uses: Number(entries[i]?.value ?? 0) || 0 }));
}

async function countUse(ctx: ServiceContext, domain: string): Promise<void> {
  const now = ctx.clock.now();
  const day = dayStart(now.getTime());
  const key = [...USES, domain, String(day)];
  const expiresAt = new Date(day + (HISTORY_DAYS + 1) * DAY_MS).toISOString();
  for (let attempt = 0; attempt < 10; attempt++) {
    const current = await ctx.storage.kv.get(key);
    const next = { key, value: Number(current?.value ?? 0) + 1, expiresAt };
    if (await ctx.storage.kv.compareAndSet(current?.value, next, now.toISOString())) return;
  }
}

export function canonicalEmailHash(email: string): string {
  return createHash("sha256").update(canonicalEmail(email)).digest("hex");
}

export async function listCanonicalEmailBlocks(
  ctx: ServiceContext,
): Promise<CanonicalEmailBlock[]> {
  return newestFirst(
    (await ctx.storage.kv.list(CANONICAL)).flatMap((e) => readCanonical(e.value) ?? []),
  );
}

export async function getCanonicalEmailBlock(
  ctx: ServiceContext,
  id: string,
): Promise<CanonicalEmailBlock> {
  const found = (await listCanonicalEmailBlocks(ctx)).find((b) => b.id === id);
  if (!found) throw notFound();
  return found;
}

/** From an address (hashed here) or a hash given as is (64 hex digits). */
export async function createCanonicalEmailBlock(
  ctx: ServiceContext,
  input: { email?: string | undefined; canonicalEmailHash?: string | undefined },
): Promise<CanonicalEmailBlock> {
  let hash: string;
  if (input.email !== undefined && input.email.trim() !== "") {
    if (!input.email.includes("@")) throw unprocessable("Validation failed: Email is invalid");
    hash = canonicalEmailHash(input.email);
  } else if (input.canonicalEmailHash !== undefined && input.canonicalEmailHash !== "") {
    hash = input.canonicalEmailHash.toLowerCase();
    if (!/^[0-9a-f]{64}$/.test(hash)) {
      throw unprocessable("Validation failed: Canonical email hash is invalid");
    }
  } else {
    throw unprocessable("Validation failed: Canonical email hash can't be blank");
  }
  const now = ctx.clock.now().toISOString();
  const block: CanonicalEmailBlock = {
    id: ctx.ids.next(),
    canonicalEmailHash: hash,
    createdAt: now,
  };
  const entry = { key: [...CANONICAL, hash], value: block, expiresAt: null };
  if (!(await ctx.storage.kv.compareAndSet(undefined, entry, now))) {
    throw unprocessable("Validation failed: Canonical email hash has already been taken");
  }
  return block;
}

export async function removeCanonicalEmailBlock(
  ctx: ServiceContext,
  id: string,
): Promise<CanonicalEmailBlock> {
  const block = await getCanonicalEmailBlock(ctx, id);
  await ctx.storage.kv.delete([...CANONICAL, block.canonicalEmailHash]);
  return block;
}

/** POST /api/v1/admin/canonical_email_blocks/test: the blocks matching an address. */
export async function matchingCanonicalEmailBlocks(
  ctx: ServiceContext,
  email: string,
): Promise<CanonicalEmailBlock[]> {
  const entry = await ctx.storage.kv.get([...CANONICAL, canonicalEmailHash(email)]);
  const block = readCanonical(entry?.value);
  return block ? [block] : [];
}

/**
 * What the email blocks say of a sign-up's address: `refuse` (a canonical block, or a domain
 * block without approval), `approval` (only domain blocks that allow with approval) or `ok`.
 * A refused or held address counts a use of the domain block.
 */
export async function screenEmail(
  ctx: ServiceContext,
  email: string,
): Promise<"refuse" | "approval" | "ok"> {
  if ((await matchingCanonicalEmailBlocks(ctx, email)).length > 0) return "refuse";
  const domain = emailDomainOf(email);
  if (domain === "") return "ok";
  const entries = await ctx.storage.kv.getMany(
    domainAndParents(domain).map((d) => [...DOMAINS, d]),
  );
  const blocks = entries.flatMap((e) => readDomainBlock(e?.value) ?? []);
  if (blocks.length === 0) return "ok";
  for (const block of blocks) await countUse(ctx, block.domain);
  return blocks.every((b) => b.allowWithApproval) ? "approval" : "refuse";
}
