// The actor dispatcher: `/users/{username}` answers with the local account's actor document,
// and WebFinger (acct: or the actor URL) resolves through it. Keys come from ActorKeys.

import type { Federation } from "@fedify/fedify";
import { toActor } from "../serialization/activitypub/actor.ts";
import type { ServiceContext } from "../services/context.ts";
import { loadAccountView } from "../views/account-view.ts";
import type { ActorKeys } from "./keys.ts";
import { apUrls } from "./urls.ts";

async function localAccount(ctx: ServiceContext, username: string) {
  return ctx.storage.accounts.findByUsername(username, null);
}

export function registerActor(federation: Federation<ServiceContext>, keys: ActorKeys): void {
  federation
    .setActorDispatcher("/users/{identifier}", async (fctx, identifier) => {
      const ctx = fctx.data;
      const account = await localAccount(ctx, identifier);
      if (!account) return null;
      const [view, pairs] = await Promise.all([
        loadAccountView(ctx, account),
        fctx.getActorKeyPairs(account.username),
      ]);
      // Inbox paths are ours to fix now (peers store them); their listeners come with the
      // inbox increment.
      const links = {
        inbox: new URL(`${account.uri}/inbox`),
        sharedInbox: new URL(`${ctx.settings.publicUrl}/inbox`),
        outbox: new URL(`${account.uri}/outbox`),
        followers: new URL(`${account.uri}/followers`),
        following: new URL(`${account.uri}/following`),
        featured: new URL(`${account.uri}/collections/featured`),
        featuredTags: new URL(`${account.uri}/collections/tags`),
      };
      // Mastodon reads one `publicKey` and expects RSA: only the first pair goes there; both
      // are published as Multikeys for Object Integrity Proofs.
      const keyObjects = {
        publicKey: pairs[0]?.cryptographicKey ?? null,
        assertionMethods: pairs.map((p) => p.multikey),
      };
      return toActor(view, links, keyObjects, apUrls(ctx));
    })
    // Usernames match case-insensitively (as in Mastodon); the stored spelling is canonical.
    .mapHandle(
      async (fctx, username) => (await localAccount(fctx.data, username))?.username ?? null,
    )
    .setKeyPairsDispatcher(async (fctx, identifier) => {
      const account = await localAccount(fctx.data, identifier);
      return account ? keys.pairsOf(account.id) : [];
    });
}
