// Who a viewer does not want to see in account lists (Mastodon's
// excluded_from_timeline_account_ids): accounts the viewer blocks or mutes, and accounts that
// block the viewer. Asked about a known set of ids, in one batch.

import type { ServiceContext } from "../context.ts";

export async function excludedAccounts(
  ctx: ServiceContext,
  viewerId: string | null,
  accountIds: readonly string[],
): Promise<Set<string>> {
  if (viewerId === null || accountIds.length === 0) return new Set();
  const unique = [...new Set(accountIds)];
  const [blocking, blockedBy, muting] = await ctx.storage.joined.edges(viewerId, [
    { kind: "blocks", direction: "from", ids: unique },
    { kind: "blocks", direction: "to", ids: unique },
    { kind: "mutes", direction: "from", ids: unique },
  ]);
  const now = ctx.clock.now().getTime();
  const excluded = new Set([...blocking.keys(), ...blockedBy.keys()]);
  for (const [id, mute] of muting) {
    // A timed mute that has run out no longer hides anyone.
    if (mute.expiresAt === null || Date.parse(mute.expiresAt) > now) excluded.add(id);
  }
  return excluded;
}
