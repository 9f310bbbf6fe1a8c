// Aliases of a local account, for moving in: the ActivityPub ids of its owner's accounts
// elsewhere, published as the actor's `alsoKnownAs`. A server that receives a Move from one of
// them to this account checks this list before its users follow the move. Given as an actor URL
// or a handle, an alias is resolved to the actor's id (as Mastodon's account aliases are).

import { type Account, aliasesOf, MAX_LOCAL_ALIASES } from "../../domain/account.ts";
import { notFound, unprocessable } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";

async function localAccount(ctx: ServiceContext, username: string): Promise<Account> {
  const account = await ctx.storage.accounts.findByUsername(username, null);
  if (!account) throw notFound(`No local account named ${username}`);
  return account;
}

/** The actor id of `uriOrHandle`, fetched through the federation (our own accounts too). */
async function actorIdOf(ctx: ServiceContext, uriOrHandle: string): Promise<string> {
  const found = await ctx.remote.resolveAccount(uriOrHandle.trim(), { refresh: true });
  if (!found) throw unprocessable(`Cannot find the account ${uriOrHandle}`);
  return found.uri;
}

async function saveAliases(ctx: ServiceContext, account: Account, aliases: string[]) {
  const next: Account = { ...account, aliases, updatedAt: ctx.clock.now().toISOString() };
  // Peers that follow the account refresh its actor (Update), aliases included.
  await publishAround(ctx.events, { type: "account.updated", account: next }, () =>
    ctx.storage.accounts.put(next),
  );
  return aliases;
}

export async function listAliases(ctx: ServiceContext, username: string): Promise<string[]> {
  return [...aliasesOf(await localAccount(ctx, username))];
}

/** Adds an alias; returns the account's aliases. Adding one already there changes nothing. */
export async function addAlias(
  ctx: ServiceContext,
  username: string,
  uriOrHandle: string,
): Promise<string[]> {
  const account = await localAccount(ctx, username);
  const uri = await actorIdOf(ctx, uriOrHandle);
  if (uri === account.uri) throw unprocessable("An account cannot be its own alias");
  const current = aliasesOf(account);
  if (current.includes(uri)) return [...current];
  if (current.length >= MAX_LOCAL_ALIASES) {
    throw unprocessable(`An account has at most ${MAX_LOCAL_ALIASES} aliases`);
  }
  return saveAliases(ctx, account, [...current, uri]);
}

/** Removes an alias, given as stored or as anything that resolves to it; returns the rest. */
export async function removeAlias(
  ctx: ServiceContext,
  username: string,
  uriOrHandle: string,
): Promise<string[]> {
  const account = await localAccount(ctx, username);
  const current = aliasesOf(account);
  // A stored alias is removed as given, even when its server no longer answers.
  const uri = current.includes(uriOrHandle) ? uriOrHandle : await actorIdOf(ctx, uriOrHandle);
  if (!current.includes(uri)) throw notFound(`${uriOrHandle} is not an alias of ${username}`);
  return saveAliases(
    ctx,
    account,
    current.filter((alias) => alias !== uri),
  );
}
