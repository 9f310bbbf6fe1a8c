// The federation's side of the RemoteResolver port (services/remote.ts): what search with
// `resolve=true` and `@user@host` mentions use to reach other servers. Handles go through
// WebFinger; a URL may name an actor or a post (its id or its page), and our own URLs resolve
// to our own records without any request.

import type { Federation } from "@fedify/fedify";
import type { Account } from "../domain/account.ts";
import type { Status } from "../domain/status.ts";
import type { ServiceContext } from "../services/context.ts";
import type { RemoteResolver } from "../services/remote.ts";
import { ensureRemoteAccount, type FederationContext, identifierOf } from "./remote-actors.ts";
import { ingestObject } from "./remote-objects.ts";

function ours(ctx: ServiceContext, url: URL): boolean {
  return url.origin === new URL(ctx.settings.publicUrl).origin;
}

/** Our own account for a local actor URL or `user@our-host` handle. */
async function localAccount(ctx: ServiceContext, input: string): Promise<Account | undefined> {
  const id = identifierOf(input);
  if (id instanceof URL) {
    if (!ours(ctx, id)) return undefined;
    const byUri = await ctx.storage.accounts.findByUri(id.href);
    if (byUri) return byUri;
    const profile = /^\/@([^/@]+)\/?$/.exec(id.pathname);
    return profile ? ctx.storage.accounts.findByUsername(profile[1] as string, null) : undefined;
  }
  if (typeof id === "string") {
    const [user, host] = id.replace(/^acct:/, "").split("@");
    if (user && host?.toLowerCase() === ctx.settings.domain.toLowerCase()) {
      return ctx.storage.accounts.findByUsername(user, null);
    }
  }
  return undefined;
}

/** Our own status for one of our status URLs (its id or its page). */
async function localStatus(ctx: ServiceContext, url: URL): Promise<Status | undefined> {
  const byUri = await ctx.storage.statuses.findByUri(url.href);
  if (byUri) return byUri.deleted ? undefined : byUri;
  const page = /^\/@[^/@]+\/(\d+)\/?$/.exec(url.pathname);
  const status = page ? await ctx.storage.statuses.get(page[1] as string) : undefined;
  return status && !status.deleted ? status : undefined;
}

export function createRemoteResolver(
  federation: Federation<ServiceContext>,
  ctx: ServiceContext,
): RemoteResolver {
  const fctx = (): FederationContext =>
    federation.createContext(new URL(ctx.settings.publicUrl), ctx);

  return {
    async resolveAccount(handleOrUrl, options = {}) {
      const local = await localAccount(ctx, handleOrUrl);
      if (local) return local;
      const id = identifierOf(handleOrUrl);
      if (id === null || (id instanceof URL && ours(ctx, id))) return undefined;
      // An actor id, or a page that answers with the actor's document (`https://host/@user`).
      return ensureRemoteAccount(fctx(), id, { refresh: options.refresh === true });
    },

    async resolveStatus(url) {
      const id = identifierOf(url);
      if (!(id instanceof URL)) return undefined;
      if (ours(ctx, id)) return localStatus(ctx, id);
      const known = await ctx.storage.statuses.findByUri(id.href);
      if (known) return known.deleted ? undefined : known;
      return ingestObject(fctx(), id);
    },
  };
}
