// What every inbox listener needs before it acts: the sender as a stored remote account (and
// whether it may be heard at all), local records named by ActivityPub ids, and the activity's
// object read under the origin rule. Fedify has already verified that the request was signed
// by the activity's actor; the rules here are the rest of issue 6's defence list.

import type { InboxContext } from "@fedify/fedify";
import { type Activity, type Object as APObject, Delete, Update } from "@fedify/vocab";
import { type Account, isLocal } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../../services/context.ts";
import { isDomainBlocked } from "../../services/domain-blocks/domain-blocks.ts";
import { isStorageFailure } from "../../storage/failure.ts";
import { ensureRemoteAccount } from "../remote-actors.ts";

export type InboxCtx = InboxContext<ServiceContext>;

export interface SenderOptions {
  /**
   * Only an account we already know: Delete and Undo need nothing from a stranger, and a
   * deleted actor cannot be fetched any more.
   */
  knownOnly?: boolean;
}

/**
 * The remote account that sent the activity, or undefined when it must be ignored: no actor,
 * an activity id on another origin than its actor (it could then vouch for objects of that
 * origin), a blocked domain, a local or suspended (deleted) account, or an unreachable actor.
 * An account its own server flagged suspended is heard only about itself: an Update of its
 * actor (the flag lifted, or not) or its Delete.
 */
export async function senderOf(
  fctx: InboxCtx,
  activity: Activity,
  options: SenderOptions = {},
): Promise<Account | undefined> {
  const ctx = fctx.data;
  const actorId = activity.actorId;
  if (actorId === null) return undefined;
  if (activity.id !== null && activity.id.origin !== actorId.origin) return undefined;
  if (await isDomainBlocked(ctx, actorId.host)) return undefined;
  const known = await ctx.storage.accounts.findByUri(actorId.href);
  if (known?.suspendedByItsServer) return isAboutItself(activity, actorId) ? known : undefined;
  if (known && (isLocal(known) || known.suspended)) return undefined;
  if (options.knownOnly) return known;
  const account = await ensureRemoteAccount(fctx, actorId, { stored: known ?? null });
  if (!account || isLocal(account) || account.suspended) return undefined;
  return account;
}

const isAboutItself = (activity: Activity, actorId: URL) =>
  (activity instanceof Update || activity instanceof Delete) &&
  activity.objectId?.href === actorId.href;

/** Is the URL one of ours (an id this instance minted)? */
export function isLocalUri(ctx: ServiceContext, id: URL | string): boolean {
  try {
    return new URL(id).origin === new URL(ctx.settings.publicUrl).origin;
  } catch {
    return false;
  }
}

/** The local account with this actor id. */
export async function localAccountOf(
  ctx: ServiceContext,
  id: URL | null,
): Promise<Account | undefined> {
  if (id === null || !isLocalUri(ctx, id)) return undefined;
  const account = await ctx.storage.accounts.findByUri(id.href);
  return account && isLocal(account) ? account : undefined;
}

/** A status we hold (local or remote, not deleted) with this ActivityPub id. */
export async function knownStatusOf(
  ctx: ServiceContext,
  id: URL | null,
): Promise<Status | undefined> {
  if (id === null) return undefined;
  const status = await ctx.storage.statuses.findByUri(id.href);
  return status && !status.deleted ? status : undefined;
}

/** A local, live status with this id. */
export async function localStatusOf(
  ctx: ServiceContext,
  id: URL | null,
): Promise<Status | undefined> {
  const status = await knownStatusOf(ctx, id);
  return status?.local ? status : undefined;
}

/**
 * The activity's object as we may trust it: embedded when its id has the activity's origin,
 * otherwise fetched from its own origin (Fedify's getters refetch a cross-origin embedded
 * object instead of believing it). Undefined when it cannot be had or does not parse.
 */
export async function objectOf(fctx: InboxCtx, activity: Activity): Promise<APObject | undefined> {
  try {
    const object = await activity.getObject({
      documentLoader: fctx.documentLoader,
      contextLoader: fctx.contextLoader,
      suppressError: true,
    });
    return object ?? undefined;
  } catch (error) {
    if (isStorageFailure(error)) throw error;
    // A malformed embedded object is the peer's problem: nothing to act on.
    return undefined;
  }
}

/** Does the object carry this actor as its author (`attributedTo`)? */
export function attributedTo(object: APObject, actor: Account): boolean {
  return object.attributionIds.some((id) => id.href === actor.uri);
}
