// Admin domain allows (Mastodon's DomainAllow) and the allow-list federation mode
// (WREN_FEDERATION_MODE=allowlist): in that mode only allowed domains (and their subdomains) are
// accepted at the inbox, fetched from and delivered to (domain-blocks.ts, isDomainBlocked). In the
// default block-list mode the allows are kept but change nothing. One key–value entry per domain.

import { notFound, unprocessable } from "../../domain/errors.ts";
import type { DomainAllow } from "../../domain/server-blocks.ts";
import type { ServiceContext } from "../context.ts";
import { blockCandidates, isOwnDomain, normalizeDomain } from "./hosts.ts";

const PREFIX = ["wren", "domainAllow"] as const;

function readStored(value: unknown): DomainAllow | undefined {
  const v = value as Partial<DomainAllow> | null | undefined;
  return v && typeof v.id === "string" && typeof v.domain === "string"
    ? (v as DomainAllow)
    : undefined;
}

/** Every allow, newest first. */
export async function listDomainAllows(ctx: ServiceContext): Promise<DomainAllow[]> {
  const entries = await ctx.storage.kv.list(PREFIX);
  return entries
    .flatMap((e) => readStored(e.value) ?? [])
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
}

export async function getDomainAllow(ctx: ServiceContext, id: string): Promise<DomainAllow> {
  const found = (await listDomainAllows(ctx)).find((a) => a.id === id);
  if (!found) throw notFound();
  return found;
}

/** Allows the domain; allowing one allowed already answers the allow there (as Mastodon). */
export async function allowDomain(ctx: ServiceContext, domain: string): Promise<DomainAllow> {
  const normalized = normalizeDomain(domain);
  if (isOwnDomain(ctx.settings.domain, normalized)) {
    throw unprocessable(`${normalized} is this server's own domain`);
  }
  const allow: DomainAllow = {
    id: ctx.ids.next(),
    domain: normalized,
    createdAt: ctx.clock.now().toISOString(),
  };
  const key = [...PREFIX, normalized];
  const now = ctx.clock.now().toISOString();
  if (await ctx.storage.kv.compareAndSet(undefined, { key, value: allow, expiresAt: null }, now)) {
    return allow;
  }
  return readStored((await ctx.storage.kv.get(key))?.value) ?? allow;
}

export async function removeDomainAllow(ctx: ServiceContext, id: string): Promise<DomainAllow> {
  const allow = await getDomainAllow(ctx, id);
  await ctx.storage.kv.delete([...PREFIX, allow.domain]);
  return allow;
}

/** `wren domain disallow`: false when the domain was not allowed. */
export async function disallowDomain(ctx: ServiceContext, domain: string): Promise<boolean> {
  return ctx.storage.kv.delete([...PREFIX, normalizeDomain(domain)]);
}

/** Whether an allow covers the host (itself or a parent domain). */
export async function isAllowedDomain(ctx: ServiceContext, host: string): Promise<boolean> {
  const candidates = blockCandidates(host);
  if (candidates.length === 0) return false;
  const entries = await ctx.storage.kv.getMany(candidates.map((c) => [...PREFIX, c]));
  return entries.some((e) => readStored(e?.value) !== undefined);
}
