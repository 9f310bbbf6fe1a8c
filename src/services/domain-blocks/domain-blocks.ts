// Admin domain blocks: a blocked domain (and its subdomains) gets no deliveries and nothing of
// it is ingested. Kept in the key–value store, one entry per domain, so every backend has them.

import type { ServiceContext } from "../context.ts";

const PREFIX = ["wren", "domainBlock"] as const;

export interface DomainBlock {
  domain: string;
  createdAt: string;
}

/** Lower-case host without a trailing dot; ports are kept (`host:port` is its own domain). */
export function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, "");
}

export async function blockDomain(ctx: ServiceContext, domain: string): Promise<DomainBlock> {
  const block = { domain: normalizeDomain(domain), createdAt: ctx.clock.now().toISOString() };
  await ctx.storage.kv.set({ key: [...PREFIX, block.domain], value: block, expiresAt: null });
  return block;
}

export async function unblockDomain(ctx: ServiceContext, domain: string): Promise<boolean> {
  return ctx.storage.kv.delete([...PREFIX, normalizeDomain(domain)]);
}

export async function listDomainBlocks(ctx: ServiceContext): Promise<DomainBlock[]> {
  const entries = await ctx.storage.kv.list(PREFIX);
  return entries.map((e) => e.value as DomainBlock);
}

/** True when the host or one of its parent domains is blocked. */
export async function isDomainBlocked(ctx: ServiceContext, host: string): Promise<boolean> {
  const labels = normalizeDomain(host).split(".");
  for (let i = 0; i < labels.length - 1 || i === 0; i++) {
    const candidate = labels.slice(i).join(".");
    if (await ctx.storage.kv.get([...PREFIX, candidate])) return true;
    if (labels.length === 1) break;
  }
  return false;
}
