// Whom a collection may feature (Mastodon's AccountPolicy#feature?): an account that allows it —
// a local account when it is discoverable and either unlocked, followed by the owner, or the
// owner itself — and when neither blocks the other. A remote account allows it only by an
// ActivityPub feature policy, which Wren does not read yet, so it cannot be featured (Mastodon
// also refuses a remote account whose policy is missing).

import type { Account } from "../../domain/account.ts";
import { forbidden } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";

export const CANNOT_BE_ADDED = "This account cannot be added to collections";

export async function requireFeatureable(
  ctx: ServiceContext,
  ownerId: string,
  target: Account,
): Promise<void> {
  if (!(await mayFeature(ctx, ownerId, target))) throw forbidden(CANNOT_BE_ADDED);
}

async function mayFeature(ctx: ServiceContext, ownerId: string, target: Account): Promise<boolean> {
  if (target.domain !== null || target.suspended || !target.discoverable) return false;
  const { blocks, follows } = ctx.storage;
  const [blocking, blockedBy, following] = await Promise.all([
    blocks.get(ownerId, target.id),
    blocks.get(target.id, ownerId),
    target.locked && target.id !== ownerId ? follows.get(ownerId, target.id) : undefined,
  ]);
  if (blocking || blockedBy) return false;
  return !target.locked || target.id === ownerId || following !== undefined;
}
