// Featuring accounts on one's profile (Mastodon's endorsements, "featured accounts"): a user may
// feature only accounts they follow, up to ENDORSEMENTS_LIMIT of them. Endorsing again or
// unendorsing an account that is not featured is not an error. The endorsement hangs on the
// follow: endorsementListener removes it when the follow ends.

import { unprocessable } from "../../domain/errors.ts";
import type { Endorsement } from "../../domain/relations.ts";
import type { IdPage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import type { EventListener } from "../events.ts";
import { type AccountPage, accountPage } from "./account-page.ts";
import { requireAccount } from "./target-account.ts";

/** Wren's bound on one profile's featured accounts, so a profile's list stays one short page. */
export const ENDORSEMENTS_LIMIT = 40;

const lockKey = (accountId: string) => `endorsements:${accountId}`;

export async function endorseAccount(
  ctx: ServiceContext,
  viewerId: string,
  targetId: string,
): Promise<void> {
  const target = await requireAccount(ctx, targetId);
  const { endorsements, follows } = ctx.storage;
  // One lock per endorser, so two requests at once cannot both pass the limit.
  await ctx.storage.coordination.withLock(lockKey(viewerId), async () => {
    if (await endorsements.get(viewerId, target.id)) return;
    if (!(await follows.get(viewerId, target.id))) {
      throw unprocessable(
        "Validation failed: You must be already following the person you want to endorse",
      );
    }
    if ((await endorsements.countFrom(viewerId)) >= ENDORSEMENTS_LIMIT) {
      throw unprocessable(
        `Validation failed: You cannot feature more than ${ENDORSEMENTS_LIMIT} accounts`,
      );
    }
    await endorsements.put({
      id: ctx.ids.next(),
      accountId: viewerId,
      targetId: target.id,
      createdAt: ctx.clock.now().toISOString(),
    });
  });
}

export async function unendorseAccount(
  ctx: ServiceContext,
  viewerId: string,
  targetId: string,
): Promise<void> {
  const target = await requireAccount(ctx, targetId);
  await ctx.storage.endorsements.delete(viewerId, target.id);
}

/** The accounts `accountId` features, newest endorsement first, paged by the endorsement id. */
export async function listEndorsements(
  ctx: ServiceContext,
  accountId: string,
  page: IdPage,
): Promise<AccountPage<Endorsement>> {
  const edges = await ctx.storage.endorsements.listFrom(accountId, page);
  const listed = await accountPage(ctx, edges, "targetId");
  // A featured account its server since deleted (kept suspended) is no longer shown.
  return { ...listed, items: listed.items.filter((i) => !i.account.suspended) };
}

/**
 * Ends an endorsement with the follow it hangs on (unfollow, a block, removal from followers, a
 * server block). A late retry leaves alone an account the user follows again by then.
 */
export function endorsementListener(ctx: ServiceContext): EventListener {
  return async (event) => {
    if (event.type !== "account.unfollowed") return;
    const { accountId, targetId } = event.follow;
    await ctx.storage.coordination.withLock(lockKey(accountId), async () => {
      if (await ctx.storage.follows.get(accountId, targetId)) return;
      await ctx.storage.endorsements.delete(accountId, targetId);
    });
  };
}
