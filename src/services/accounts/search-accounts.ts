// Account search (GET /api/v1/accounts/search and the accounts of GET /api/v2/search), as
// Mastodon's AccountSearchService: accounts this server knows whose name matches, the exact
// `user@host` match first. With `resolve`, an unknown `user@host` is looked up over WebFinger
// (ctx.remote) and stored. Suspended accounts and accounts of blocked domains are left out.

import { type Account, acctOf } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";
import { isDomainBlocked } from "../domain-blocks/domain-blocks.ts";
import { listedAccount } from "./listed-account.ts";

export interface SearchAccountsInput {
  query: string;
  limit: number;
  offset: number;
  /** Only accounts the viewer follows. */
  following: boolean;
  /** The signed-in viewer; null for an anonymous search (v2 allows it, without resolve). */
  viewerId: string | null;
  /** Look an unknown `user@host` up over WebFinger. */
  resolve?: boolean;
}

/** `user@host` (host possibly with a port) split, or null for anything else. */
function splitHandle(query: string): { username: string; domain: string } | null {
  const match = /^([^@\s]+)@([^@\s/]+)$/.exec(query);
  return match
    ? { username: match[1] as string, domain: (match[2] as string).toLowerCase() }
    : null;
}

/** Whether the account's username, display name or acct contains the query (any case). */
function matches(account: Account, query: string): boolean {
  const q = query.toLowerCase();
  return [account.username, account.displayName, acctOf(account)].some((s) =>
    s.toLowerCase().includes(q),
  );
}

/** The exact account a `user@host` or `user` query names, looked up remotely if asked to. */
async function exactMatch(
  ctx: ServiceContext,
  query: string,
  resolve: boolean,
): Promise<Account | undefined> {
  const handle = splitHandle(query);
  if (!handle) return ctx.storage.accounts.findByUsername(query, null);
  const known = await ctx.storage.accounts.findByUsername(handle.username, handle.domain);
  if (known || !resolve) return known;
  return ctx.remote.resolveAccount(`${handle.username}@${handle.domain}`).catch(() => undefined);
}

/** Accounts the viewer follows that match, exact username first, then oldest first (by id). */
async function searchFollowed(
  ctx: ServiceContext,
  viewerId: string,
  query: string,
): Promise<Account[]> {
  const targets = await ctx.storage.follows.allTargetsFrom(viewerId);
  const accounts = [...(await ctx.storage.accounts.getMany(targets)).values()];
  const exact = (a: Account) => (a.username.toLowerCase() === query.toLowerCase() ? 0 : 1);
  return accounts
    .filter((a) => matches(a, query))
    .sort((a, b) => exact(a) - exact(b) || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

async function shown(ctx: ServiceContext, account: Account): Promise<boolean> {
  if (account.suspended) return false;
  if (account.domain === null) return (await listedAccount(ctx, account)) !== undefined;
  return !(await isDomainBlocked(ctx, account.domain));
}

export async function searchAccounts(
  ctx: ServiceContext,
  input: SearchAccountsInput,
): Promise<Account[]> {
  let query = input.query.trim().replace(/^@/, "");
  // `alice@our.host` is how people write a local account; the store knows it as `alice`.
  const ownSuffix = `@${ctx.settings.domain.toLowerCase()}`;
  if (query.toLowerCase().endsWith(ownSuffix)) query = query.slice(0, -ownSuffix.length);
  if (query === "" || input.limit <= 0) return [];
  if (input.following && input.viewerId === null) return [];

  const exact =
    input.offset === 0 ? await exactMatch(ctx, query, input.resolve === true) : undefined;
  // Fetch one more than asked, so the exact match can lead without shortening the page.
  const found = input.following
    ? (await searchFollowed(ctx, input.viewerId as string, query)).slice(
        input.offset,
        input.offset + input.limit + 1,
      )
    : await ctx.storage.accounts.search(query, {
        limit: input.limit + 1,
        offset: input.offset,
        localOnly: false,
      });
  const followsExact =
    exact !== undefined &&
    (!input.following ||
      (await ctx.storage.follows.get(input.viewerId as string, exact.id)) !== undefined);
  const ordered =
    followsExact && exact ? [exact, ...found.filter((a) => a.id !== exact.id)] : found;
  const out: Account[] = [];
  for (const account of ordered) {
    if (out.length === input.limit) break;
    if (await shown(ctx, account)) out.push(account);
  }
  return out;
}
