// Browser sessions of the web pages (settings now, the admin area next). Signing in hands the
// browser a random secret in a cookie; storage keeps only its SHA-256 hash, in the key-value
// store (both backends, shared by every process), under the account, with the session's expiry:
// `["web-session", accountId, hash]`. The cookie reads `accountId.secret`, so a session is one
// lookup and an account's sessions are one prefix listing (to sign them all out). Signing out
// removes the entry; a password change removes them all (reset-password.ts).

import type { ServiceContext } from "../context.ts";
import { hashSecret, newSecret } from "./secrets.ts";

/** How long a session lasts from sign-in (not extended by use). */
export const WEB_SESSION_LIFETIME_MS = 14 * 24 * 3600_000;

const PREFIX = "web-session";
const COOKIE_VALUE = /^([0-9]{1,25})\.([A-Za-z0-9_-]{43})$/;

interface SessionRecord {
  accountId: string;
  createdAt: string;
  /** The browser's User-Agent at sign-in (shown should sessions ever be listed). */
  userAgent: string;
}

export interface WebSession {
  accountId: string;
  /** The stored hash: stable for the session, known only to the server and the holder. */
  handle: string;
  expiresAt: string;
}

const keyOf = (accountId: string, hash: string) => [PREFIX, accountId, hash];

function parse(cookie: string): { accountId: string; hash: string } | null {
  const match = COOKIE_VALUE.exec(cookie);
  if (!match) return null;
  return { accountId: match[1] as string, hash: hashSecret(match[2] as string) };
}

/** Starts a session; the cookie value to hand the browser, and when it expires. */
export async function startWebSession(
  ctx: ServiceContext,
  accountId: string,
  userAgent: string,
): Promise<{ cookie: string; expiresAt: Date }> {
  const secret = newSecret();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + WEB_SESSION_LIFETIME_MS);
  const record: SessionRecord = {
    accountId,
    createdAt: now.toISOString(),
    userAgent: userAgent.slice(0, 255),
  };
  await ctx.storage.kv.set({
    key: keyOf(accountId, hashSecret(secret)),
    value: record,
    expiresAt: expiresAt.toISOString(),
  });
  return { cookie: `${accountId}.${secret}`, expiresAt };
}

/** The live session a cookie value names, or undefined (unknown, signed out or expired). */
export async function findWebSession(
  ctx: ServiceContext,
  cookie: string,
): Promise<WebSession | undefined> {
  const parsed = parse(cookie);
  if (!parsed) return undefined;
  const entry = await ctx.storage.kv.get(keyOf(parsed.accountId, parsed.hash));
  if (!entry || entry.expiresAt === null) return undefined;
  if (entry.expiresAt <= ctx.clock.now().toISOString()) return undefined;
  const record = entry.value as Partial<SessionRecord> | null;
  if (record?.accountId !== parsed.accountId) return undefined;
  return { accountId: parsed.accountId, handle: parsed.hash, expiresAt: entry.expiresAt };
}

/** Signs the cookie's session out; false when there was none. */
export async function endWebSession(ctx: ServiceContext, cookie: string): Promise<boolean> {
  const parsed = parse(cookie);
  return parsed ? ctx.storage.kv.delete(keyOf(parsed.accountId, parsed.hash)) : false;
}

/** Signs every browser of the account out; returns how many sessions ended. */
export async function endWebSessionsOf(ctx: ServiceContext, accountId: string): Promise<number> {
  let ended = 0;
  for (const entry of await ctx.storage.kv.list([PREFIX, accountId])) {
    if (await ctx.storage.kv.delete(entry.key)) ended++;
  }
  return ended;
}
