// A URL typed into search (Mastodon's ResolveURLService): an account or status this server has
// already (by ActivityPub id, or a local profile/status page), or, with `resolve`, the remote
// document fetched and stored through ctx.remote. Hosts under a domain block are not fetched.

import type { Account } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { isDomainBlocked } from "../domain-blocks/domain-blocks.ts";

export type UrlResource =
  | { kind: "account"; account: Account }
  | { kind: "status"; status: Status };

export interface ResolveUrlOptions {
  resolve: boolean;
  /** Only look for this kind (the search's `type`). */
  only?: "account" | "status" | undefined;
}

/** Local web pages: `/@user`, `/@user/<id>`, `/users/user`, `/users/user/statuses/<id>`. */
async function localPage(ctx: ServiceContext, url: URL): Promise<UrlResource | undefined> {
  const match = /^\/(?:@([^/]+)|users\/([^/]+))(?:\/(?:statuses\/)?(\d+))?\/?$/.exec(url.pathname);
  if (!match) return undefined;
  let username: string;
  try {
    username = decodeURIComponent((match[1] ?? match[2]) as string);
  } catch {
    return undefined;
  }
  const account = await ctx.storage.accounts.findByUsername(username, null);
  if (!account) return undefined;
  if (match[3] === undefined) return { kind: "account", account };
  const status = await ctx.storage.statuses.get(match[3]);
  return status && status.accountId === account.id ? { kind: "status", status } : undefined;
}

async function known(ctx: ServiceContext, url: URL): Promise<UrlResource | undefined> {
  if (url.origin === new URL(ctx.settings.publicUrl).origin) return localPage(ctx, url);
  const [status, account] = await Promise.all([
    ctx.storage.statuses.findByUri(url.href),
    ctx.storage.accounts.findByUri(url.href),
  ]);
  if (status) return { kind: "status", status };
  if (account) return { kind: "account", account };
  return undefined;
}

async function fetched(ctx: ServiceContext, url: URL, only: ResolveUrlOptions["only"]) {
  if (url.origin === new URL(ctx.settings.publicUrl).origin) return undefined;
  if (await isDomainBlocked(ctx, url.host)) return undefined;
  if (only !== "account") {
    const status = await ctx.remote.resolveStatus(url.href).catch(() => undefined);
    if (status) return { kind: "status" as const, status };
  }
  if (only !== "status") {
    const account = await ctx.remote.resolveAccount(url.href).catch(() => undefined);
    if (account) return { kind: "account" as const, account };
  }
  return undefined;
}

export async function resolveUrl(
  ctx: ServiceContext,
  text: string,
  options: ResolveUrlOptions,
): Promise<UrlResource | undefined> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  const found = await known(ctx, url);
  const resource = found ?? (options.resolve ? await fetched(ctx, url, options.only) : undefined);
  if (!resource) return undefined;
  if (options.only && resource.kind !== options.only) return undefined;
  if (resource.kind === "status" && resource.status.deleted) return undefined;
  if (resource.kind === "account" && resource.account.suspended) return undefined;
  return resource;
}
