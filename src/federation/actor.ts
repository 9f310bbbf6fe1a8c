// The actor dispatcher: `/users/{username}` answers with the local account's actor document,
// and WebFinger (acct: or the actor URL) resolves through it. Keys come from ActorKeys.

import type { ActorKeyPair, Context, Federation } from "@fedify/fedify";
import {
  type ActorKeyObjects,
  type ActorLinks,
  toActor,
} from "../serialization/activitypub/actor.ts";
import { toInstanceActor } from "../serialization/activitypub/instance-actor.ts";
import { findServedLocalActor } from "../services/accounts/listed-account.ts";
import type { ServiceContext } from "../services/context.ts";
import { loadAccountView } from "../views/account-view.ts";
import { instanceActorIdentifier } from "./instance-actor.ts";
import type { ActorKeys } from "./keys.ts";
import { apUrls } from "./urls.ts";

/** The key store's id for the instance actor's pairs (account ids are all digits). */
const INSTANCE_KEYS_ID = "instance";

/**
 * A sign-up still pending has no actor and no WebFinger yet; an account suspended here keeps
 * both, flagged, until its data is deleted.
 */
async function localAccount(ctx: ServiceContext, username: string) {
  return findServedLocalActor(ctx, username);
}

/**
 * Where an actor's inboxes and collections live. The collections are Fedify's routes (see
 * collections/), so their URIs come from Fedify; the inbox paths are fixed here (peers store
 * them) for the inbox listeners.
 */
function actorLinks(fctx: Context<ServiceContext>, identifier: string, id: URL): ActorLinks {
  return {
    inbox: new URL(`${id.href}/inbox`),
    sharedInbox: new URL(`${fctx.data.settings.publicUrl}/inbox`),
    outbox: fctx.getOutboxUri(identifier),
    followers: fctx.getFollowersUri(identifier),
    following: fctx.getFollowingUri(identifier),
    featured: fctx.getFeaturedUri(identifier),
    featuredTags: fctx.getFeaturedTagsUri(identifier),
  };
}

/**
 * Mastodon reads one `publicKey` and expects RSA: only the first pair goes there; both are
 * published as Multikeys for Object Integrity Proofs.
 */
function keyObjectsOf(pairs: readonly ActorKeyPair[]): ActorKeyObjects {
  return {
    publicKey: pairs[0]?.cryptographicKey ?? null,
    assertionMethods: pairs.map((p) => p.multikey),
  };
}

export function registerActor(federation: Federation<ServiceContext>, keys: ActorKeys): void {
  federation
    .setActorDispatcher("/users/{identifier}", async (fctx, identifier) => {
      const ctx = fctx.data;
      if (identifier === instanceActorIdentifier(ctx.settings)) {
        const id = fctx.getActorUri(identifier);
        const pairs = await fctx.getActorKeyPairs(identifier);
        const links = actorLinks(fctx, identifier, id);
        return toInstanceActor(id, identifier, ctx.settings.publicUrl, links, keyObjectsOf(pairs));
      }
      const account = await localAccount(ctx, identifier);
      if (!account) return null;
      const [view, pairs] = await Promise.all([
        loadAccountView(ctx, account),
        fctx.getActorKeyPairs(account.username),
      ]);
      const links = actorLinks(fctx, account.username, new URL(account.uri));
      return toActor(view, links, keyObjectsOf(pairs), apUrls(ctx));
    })
    // Usernames match case-insensitively (as in Mastodon); the stored spelling is canonical.
    .mapHandle(async (fctx, username) => {
      // acct:<host>@<host> is the instance actor (as on GoToSocial).
      const instance = instanceActorIdentifier(fctx.data.settings);
      if (username.toLowerCase() === instance.toLowerCase()) return instance;
      return (await localAccount(fctx.data, username))?.username ?? null;
    })
    .setKeyPairsDispatcher(async (fctx, identifier) => {
      if (identifier === instanceActorIdentifier(fctx.data.settings)) {
        return keys.pairsOf(INSTANCE_KEYS_ID);
      }
      // A suspended account still signs, also once its data is deleted (its actor Delete goes
      // out after the deletion); a sign-up still pending has no keys yet.
      const account = await fctx.data.storage.accounts.findByUsername(identifier, null);
      if (!account) return [];
      const signs = account.suspended || (await localAccount(fctx.data, identifier)) !== undefined;
      return signs ? keys.pairsOf(account.id) : [];
    });
}
