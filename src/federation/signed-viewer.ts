// Who is asking, for documents that not everyone may read (private statuses): the local record
// of the remote actor whose key signed the GET, or null for unsigned requests, bad signatures,
// actors we hold no record of (they can follow no one here and be mentioned by no one), and
// actors on a domain the admin blocked. The signer is who the key claims to belong to only
// when that actor's own document lists the key (actor-keys.ts, the inbox's rule too): a key
// elsewhere claiming to be a follower's must not read that follower's private posts.

import type { RequestContext } from "@fedify/fedify";
import type { Account } from "../domain/account.ts";
import type { ServiceContext } from "../services/context.ts";
import { isDomainBlocked } from "../services/domain-blocks/domain-blocks.ts";
import { verifySigner } from "./actor-keys.ts";
import { instanceActorIdentifier } from "./instance-actor.ts";

export async function signedViewer(fctx: RequestContext<ServiceContext>): Promise<Account | null> {
  const ctx = fctx.data;
  try {
    // Servers with authorized fetch answer key lookups only to signed requests.
    const documentLoader = await fctx.getDocumentLoader({
      identifier: instanceActorIdentifier(ctx.settings),
    });
    const key = await fctx.getSignedKey({ documentLoader });
    const ownerId = key?.ownerId ?? null;
    if (ownerId === null) return null;
    if ((await verifySigner(fctx, fctx.request, null, ownerId)) !== "verified") return null;
    const account = await ctx.storage.accounts.findByUri(ownerId.href);
    // Local accounts never sign requests to their own server; suspended actors are gone.
    if (!account || account.domain === null || account.suspended) return null;
    if (await isDomainBlocked(ctx, account.domain)) return null;
    return account;
  } catch {
    // A malformed signature or an unreachable key is an anonymous request, never an error.
    return null;
  }
}
