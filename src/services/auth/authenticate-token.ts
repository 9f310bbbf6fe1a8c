import type { Account } from "../../domain/account.ts";
import { LruCache } from "../../domain/lru-cache.ts";
import type { AccessToken, OAuthApp } from "../../domain/oauth.ts";
import type { User } from "../../domain/user.ts";
import type { TokenHolder } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { noteActivity } from "../metrics/activity.ts";
import { keptForViewer, type ViewerPart } from "../viewer-memo.ts";
import { hashSecret } from "./secrets.ts";

export interface Authenticated {
  token: AccessToken;
  app: OAuthApp;
  account: Account | null;
  user: User | null;
}

/**
 * A token's holder (token, app, account, user) kept per token hash and version of its kinds, as a
 * viewer's own records are (viewer-memo.ts says why that is exact, on PostgreSQL in every
 * process): a revoked token, a disabled user or a suspended account is a write, which moves the
 * version. Between writes a signed-in request finds its holder in one lookup instead of four
 * store reads and their promises; an unknown token's "none" is kept alike.
 */
const TOKEN_HOLDERS: ViewerPart<TokenHolder | undefined> = {
  name: "token holder",
  read: (ctx, tokenHash) => ctx.storage.joined.tokenHolder(tokenHash),
  // The token, then its app, account and user.
  kinds: ["tokens", "accounts"],
  size: () => 1,
};

/**
 * The hashes of the bearer tokens seen lately. Every signed-in request hashes its token (SHA-256:
 * about 2% of the CPU of an answer served from a kept one) and a client sends the same token with
 * every request. The hash is a pure function of the token, so keeping it is exact in every
 * process. Only token-sized values are kept, so a flood of long made-up bearers cannot grow the
 * memory beyond about 10,000 × 200 bytes.
 */
const bearerHashes = new LruCache<string, string>(10_000);
const KEPT_BEARER_LENGTH = 128;

function bearerHash(bearer: string): string {
  const kept = bearerHashes.get(bearer);
  if (kept !== undefined) return kept;
  const hash = hashSecret(bearer);
  if (bearer.length <= KEPT_BEARER_LENGTH) bearerHashes.set(bearer, hash);
  return hash;
}

/**
 * Resolves a bearer token to who holds it. Unknown, revoked, or orphaned tokens, and tokens of
 * disabled users or suspended accounts, resolve to null (the caller answers 401).
 */
export async function authenticateToken(
  ctx: ServiceContext,
  bearer: string,
): Promise<Authenticated | null> {
  // Every request with a token starts here: its app, account and user come in the same read.
  const kept = keptForViewer(ctx, TOKEN_HOLDERS, bearerHash(bearer));
  const holder = kept instanceof Promise ? await kept : kept;
  if (!holder) return null;
  const { token, app, account, user } = holder;
  if (token.revokedAt !== null || !app) return null;
  if (token.accountId === null) return { token, app, account: null, user: null };
  // A suspended account's tokens stay, refused until a moderator lifts the suspension.
  if (!account || !user || user.disabled || account.suspended) return null;
  // Using a token is being active that day (the admin metrics; at most one write a day).
  const noting = noteActivity(ctx, account.id);
  if (noting) await noting;
  return { token, app, account, user };
}
