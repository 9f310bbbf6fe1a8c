// Mute an account (Mastodon's MuteService): hide its statuses and, by default, its
// notifications, for `durationSeconds` (0: until unmuted). Muting again replaces the options and
// the expiry. Muting yourself does nothing.

import { unprocessable } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { activeMute, MUTE_EXPIRE_JOB, muteLockKey } from "./mute-expiry.ts";
import { requireAccount } from "./target-account.ts";

export interface MuteOptions {
  /** Also hide notifications from the account (default true). */
  notifications?: boolean | undefined;
  /** Seconds until the mute lapses; 0 or undefined for an indefinite mute. */
  durationSeconds?: number | undefined;
}

function expiryOf(now: Date, durationSeconds: number): string | null {
  if (!Number.isSafeInteger(durationSeconds) || durationSeconds < 0) {
    throw unprocessable("Validation failed: Duration must be a whole number of seconds, 0 or more");
  }
  if (durationSeconds === 0) return null;
  const expires = new Date(now.getTime() + durationSeconds * 1000);
  // Beyond the largest date JavaScript can represent (about 275,000 years).
  if (Number.isNaN(expires.getTime()))
    throw unprocessable("Validation failed: Duration is too long");
  return expires.toISOString();
}

export async function muteAccount(
  ctx: ServiceContext,
  viewerId: string,
  targetId: string,
  options: MuteOptions = {},
): Promise<void> {
  const target = await requireAccount(ctx, targetId);
  if (target.id === viewerId) return;
  const now = ctx.clock.now();
  const expiresAt = expiryOf(now, options.durationSeconds ?? 0);
  // Queued first: should the put fail, the job finds nothing lapsed and leaves things alone.
  if (expiresAt !== null) {
    await ctx.jobs.enqueue(
      MUTE_EXPIRE_JOB,
      { accountId: viewerId, targetId: target.id },
      { runAt: new Date(expiresAt) },
    );
  }
  await ctx.storage.coordination.withLock(muteLockKey(viewerId, target.id), async () => {
    // A lapsed mute counts as none: muting again starts a new one (new place in the mutes list).
    const existing = activeMute(await ctx.storage.mutes.get(viewerId, target.id), now);
    await ctx.storage.mutes.put({
      id: existing?.id ?? ctx.ids.next(),
      accountId: viewerId,
      targetId: target.id,
      createdAt: existing?.createdAt ?? now.toISOString(),
      hideNotifications: options.notifications ?? true,
      expiresAt,
    });
  });
}
