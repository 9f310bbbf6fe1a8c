// POST/GET/PUT/DELETE /api/v1/push/subscription: the Web Push subscription of the access token
// in use, as Mastodon keeps it: one per token, a new POST replacing the old one (with a new id),
// a PUT changing only the alerts and policy, revoking the token removing it.

import { ECDH } from "node:crypto";
import { notFound, unprocessable } from "../../domain/errors.ts";
import type { AccessToken } from "../../domain/oauth.ts";
import type {
  PushAlertType,
  PushPolicy,
  PushSubscription,
} from "../../domain/push-subscription.ts";
import { scopesAdmit } from "../../domain/scopes.ts";
import type { ServiceContext } from "../context.ts";

/** What the client may change after subscribing (Mastodon's `data`). */
export interface PushSettings {
  alerts: Partial<Record<PushAlertType, boolean>>;
  policy: PushPolicy;
}

export interface NewPushSubscription extends PushSettings {
  endpoint: string;
  p256dh: string;
  auth: string;
  standard: boolean;
}

/** The token the request came with, and its secret (the payload carries it, as Mastodon's). */
export interface SubscribingToken {
  token: AccessToken & { accountId: string };
  secret: string;
}

function checkEndpoint(endpoint: string): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw unprocessable("Validation failed: Endpoint is not a valid URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw unprocessable("Validation failed: Endpoint is not a valid URL");
  }
}

/** The keys must encrypt: a P-256 point (uncompressed) and an auth secret of 16 bytes or more. */
function checkKeys(p256dh: string, auth: string): void {
  const point = Buffer.from(p256dh, "base64url");
  let valid = point.length === 65 && point[0] === 4;
  if (valid) {
    try {
      // Throws for a point that is not on the curve.
      ECDH.convertKey(point, "prime256v1");
    } catch {
      valid = false;
    }
  }
  if (!valid) throw unprocessable("Validation failed: Key p256dh is not a P-256 public key");
  if (Buffer.from(auth, "base64url").length < 16) {
    throw unprocessable("Validation failed: Key auth must be at least 16 bytes");
  }
}

export async function subscribeToPush(
  ctx: ServiceContext,
  caller: SubscribingToken,
  input: NewPushSubscription,
): Promise<PushSubscription> {
  checkEndpoint(input.endpoint);
  checkKeys(input.p256dh, input.auth);
  const now = ctx.clock.now().toISOString();
  const subscription: PushSubscription = {
    id: ctx.ids.next(),
    tokenId: caller.token.id,
    accountId: caller.token.accountId,
    accessToken: caller.secret,
    endpoint: input.endpoint,
    keys: { p256dh: input.p256dh, auth: input.auth },
    standard: input.standard,
    alerts: input.alerts,
    policy: input.policy,
    createdAt: now,
    updatedAt: now,
  };
  // Replaces the token's earlier subscription, if any: it is keyed by the token.
  await ctx.storage.pushSubscriptions.put(subscription);
  return subscription;
}

export async function getPushSubscription(
  ctx: ServiceContext,
  tokenId: string,
): Promise<PushSubscription> {
  const subscription = await ctx.storage.pushSubscriptions.get(tokenId);
  if (!subscription) throw notFound();
  return subscription;
}

export async function updatePushSubscription(
  ctx: ServiceContext,
  tokenId: string,
  settings: PushSettings,
): Promise<PushSubscription> {
  const subscription = await getPushSubscription(ctx, tokenId);
  const updated: PushSubscription = {
    ...subscription,
    alerts: settings.alerts,
    policy: settings.policy,
    updatedAt: ctx.clock.now().toISOString(),
  };
  await ctx.storage.pushSubscriptions.put(updated);
  return updated;
}

/**
 * A refreshed token takes over the subscription of the one it replaces (the app did not ask to
 * stop receiving pushes), unless the new grant no longer holds the `push` scope.
 */
export async function moveToRefreshedToken(
  ctx: ServiceContext,
  oldTokenId: string,
  issued: { token: AccessToken; secret: string },
): Promise<void> {
  const subscription = await ctx.storage.pushSubscriptions.get(oldTokenId);
  if (!subscription) return;
  if (scopesAdmit(issued.token.scopes, ["push"])) {
    await ctx.storage.pushSubscriptions.put({
      ...subscription,
      tokenId: issued.token.id,
      accessToken: issued.secret,
      updatedAt: ctx.clock.now().toISOString(),
    });
  }
  await ctx.storage.pushSubscriptions.delete(oldTokenId);
}

/** Removes the token's subscription; nothing to do when it has none (revoked, unsubscribed). */
export async function unsubscribeFromPush(ctx: ServiceContext, tokenId: string): Promise<void> {
  await ctx.storage.pushSubscriptions.delete(tokenId);
}
