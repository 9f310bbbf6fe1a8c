// Who an account mutes right now, for the read paths that hide muted people (home timeline,
// notifications). Expired timed mutes are left out.

import type { ServiceContext } from "../context.ts";
import { isMuteActive } from "./mute-expiry.ts";

export async function mutedAccountIds(
  ctx: ServiceContext,
  accountId: string,
): Promise<Set<string>> {
  const targets = await ctx.storage.mutes.allTargetsFrom(accountId);
  if (targets.length === 0) return new Set();
  const mutes = await ctx.storage.mutes.findFrom(accountId, targets);
  const now = ctx.clock.now();
  const active = new Set<string>();
  for (const [targetId, mute] of mutes) if (isMuteActive(mute, now)) active.add(targetId);
  return active;
}
