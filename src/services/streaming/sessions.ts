// Who may keep streaming. A connection is authenticated once, when it opens; these end the open
// ones of an account that may no longer use the API, on every process (through the broadcast):
// - endStreamingSessions: for the use cases that disable or suspend a user (call it once the
//   change is stored), and anything else that takes an account's access away at once;
// - accountsShutOut: what every hub checks of its connected accounts at each heartbeat, so that a
//   change stored without the signal (another process, a restore) ends their streams too.
// A revoked token ends its own streams (oauth/revoke-token.ts, the `token_revoked` signal).

import type { ServiceContext } from "../context.ts";
import { signalStreams } from "./signal.ts";

/** Ends every streaming connection of the account, on every process. */
export async function endStreamingSessions(ctx: ServiceContext, accountId: string): Promise<void> {
  await signalStreams(ctx, { kind: "sessions_revoked", accountId });
}

/** Of the accounts, those that may no longer stream: no user (any more), or a disabled one. */
export async function accountsShutOut(
  ctx: ServiceContext,
  accountIds: readonly string[],
): Promise<string[]> {
  if (accountIds.length === 0) return [];
  const users = await ctx.storage.users.getMany(accountIds);
  return accountIds.filter((id) => {
    const user = users.get(id);
    return !user || user.disabled;
  });
}
