// Moving a local account out (Mastodon's MoveService): the new account must already list this
// one in its `alsoKnownAs` (fetched fresh from its server), so nobody can send their followers
// to an account that did not ask for them. The account is marked as moved and the move is an
// event: the outbox sends Move (and the updated actor) to every follower's server through the
// durable queue, and local followers follow the new account (moves/listener.ts). The old actor
// keeps answering, as Mastodon's does.

import { type Account, aliasesOf, movedToOf } from "../../domain/account.ts";
import { notFound, unprocessable } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { publishAround } from "../events.ts";

export async function moveAccount(
  ctx: ServiceContext,
  username: string,
  targetHandle: string,
): Promise<{ account: Account; target: Account }> {
  const account = await ctx.storage.accounts.findByUsername(username, null);
  if (!account) throw notFound(`No local account named ${username}`);
  const target = await ctx.remote.resolveAccount(targetHandle.trim(), { refresh: true });
  if (!target) throw unprocessable(`Cannot find the account ${targetHandle}`);
  if (target.id === account.id) throw unprocessable("An account cannot move to itself");
  if (!aliasesOf(target).includes(account.uri)) {
    throw unprocessable(
      `${targetHandle} does not list ${account.uri} among its aliases (alsoKnownAs): add it there first`,
    );
  }
  // A chain would send followers on to wherever that one went: they follow the end instead.
  if (movedToOf(target) !== null) throw unprocessable(`${targetHandle} has itself moved`);
  const moved: Account = {
    ...account,
    movedTo: target.uri,
    updatedAt: ctx.clock.now().toISOString(),
  };
  await publishAround(ctx.events, { type: "account.moved", account: moved, target }, () =>
    ctx.storage.accounts.put(moved),
  );
  return { account: moved, target };
}
