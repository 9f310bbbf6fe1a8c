// DELETE /api/v1/profile/avatar and /header: back to the default image. Deleting an image that
// is not set is not an error (Mastodon answers with the unchanged account).

import type { Account } from "../../domain/account.ts";
import { discardProfileImage, type ProfileImageKind } from "../../media/profile-images.ts";
import type { ServiceContext } from "../context.ts";

export async function deleteProfileImage(
  ctx: ServiceContext,
  accountId: string,
  kind: ProfileImageKind,
): Promise<Account> {
  const current = await ctx.storage.accounts.get(accountId);
  if (!current) throw new Error(`Account ${accountId} does not exist`);
  const previous = current[kind];
  if (previous === null) return current;
  const next: Account = { ...current, [kind]: null, updatedAt: ctx.clock.now().toISOString() };
  await ctx.storage.accounts.put(next);
  // The record no longer points at the files, so a failed removal only leaves an orphan.
  await discardProfileImage(ctx.files, previous).catch(() => undefined);
  return next;
}
