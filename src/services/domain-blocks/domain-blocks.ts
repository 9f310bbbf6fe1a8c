// Admin domain blocks: a blocked domain (and its subdomains) gets no deliveries and nothing of
// it is ingested. Kept in the key–value store, one entry per domain, so every backend has them.
// Blocking also ends every follow between local accounts and accounts of the domain
// (sever-domain.ts), as Mastodon's domain block with severity "suspend" does.

import { isIP } from "node:net";
import { unprocessable } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { severDomain } from "./sever-domain.ts";

const PREFIX = ["wren", "domainBlock"] as const;

export interface DomainBlock {
  domain: string;
  createdAt: string;
}

/** A host split into its name (no brackets, no trailing dot) and port (or null). */
function splitHost(host: string): { name: string; port: string | null } {
  const trimmed = host.trim().toLowerCase();
  const bracketed = /^\[([^\]]*)\](?::(\d+))?$/.exec(trimmed);
  if (bracketed) return { name: bracketed[1] as string, port: bracketed[2] ?? null };
  // A bare IPv6 address has several colons and no port.
  if (isIP(trimmed) === 6) return { name: trimmed, port: null };
  const withPort = /^(.*):(\d+)$/.exec(trimmed);
  const name = (withPort ? (withPort[1] as string) : trimmed).replace(/\.$/, "");
  return { name, port: withPort ? (withPort[2] as string) : null };
}

function joinHost(name: string, port: string | null): string {
  const shown = isIP(name) === 6 ? `[${name}]` : name;
  return port === null ? shown : `${shown}:${port}`;
}

/**
 * The stored form of a domain: lower case, without a trailing dot, IDNs in punycode, IPv6 in
 * brackets; a port is kept (`host:port` is its own domain). Throws 422 for anything that is
 * not a host (a URL, an account handle, spaces).
 */
export function normalizeDomain(domain: string): string {
  const { name, port } = splitHost(domain);
  if (name === "" || /[\s/@?#]/.test(name)) throw unprocessable(`Not a domain: ${domain}`);
  let parsed: URL;
  try {
    parsed = new URL(`http://${joinHost(name, null)}/`);
  } catch {
    throw unprocessable(`Not a domain: ${domain}`);
  }
  return joinHost(splitHost(parsed.hostname).name, port);
}

/**
 * The block entries that would cover a host: for a DNS name, the name and each parent domain
 * of two labels or more (`a.b.example` → `a.b.example`, `b.example`); for an IP address only
 * itself. Each with the host's port first (a block of `host:port`) and then without (a block
 * of the bare domain covers every port). A subdomain's block never covers its parent.
 */
export function blockCandidates(host: string): string[] {
  let normalized: string;
  try {
    normalized = normalizeDomain(host);
  } catch {
    return [];
  }
  const { name, port } = splitHost(normalized);
  const names: string[] = [];
  if (isIP(name) !== 0) names.push(name);
  else {
    const labels = name.split(".");
    for (let i = 0; i < labels.length; i++) {
      if (i > 0 && labels.length - i < 2) break;
      names.push(labels.slice(i).join("."));
    }
  }
  return names.flatMap((n) =>
    port === null ? [joinHost(n, null)] : [joinHost(n, port), joinHost(n, null)],
  );
}

export interface BlockDomainResult {
  block: DomainBlock;
  /** Follows and follow requests ended between local accounts and the domain's accounts. */
  severed: number;
}

export async function blockDomain(ctx: ServiceContext, domain: string): Promise<BlockDomainResult> {
  const normalized = normalizeDomain(domain);
  // Our own host (or a parent of it) would block nothing remote and confuse every check.
  if (blockCandidates(ctx.settings.domain).includes(normalized)) {
    throw unprocessable(`${normalized} is this server's own domain`);
  }
  const existing = await ctx.storage.kv.get([...PREFIX, normalized]);
  const block = (existing?.value as DomainBlock | undefined) ?? {
    domain: normalized,
    createdAt: ctx.clock.now().toISOString(),
  };
  if (!existing)
    await ctx.storage.kv.set({ key: [...PREFIX, normalized], value: block, expiresAt: null });
  const severed = await severDomain(ctx, (host) => blockCandidates(host).includes(normalized));
  return { block, severed };
}

export async function unblockDomain(ctx: ServiceContext, domain: string): Promise<boolean> {
  return ctx.storage.kv.delete([...PREFIX, normalizeDomain(domain)]);
}

export async function listDomainBlocks(ctx: ServiceContext): Promise<DomainBlock[]> {
  const entries = await ctx.storage.kv.list(PREFIX);
  return entries.map((e) => e.value as DomainBlock);
}

/**
 * True when the host (`name` or `name:port`, as in a URL's `host`) is blocked: by a block of
 * itself or of one of its parent domains (see blockCandidates).
 */
export async function isDomainBlocked(ctx: ServiceContext, host: string): Promise<boolean> {
  for (const candidate of blockCandidates(host)) {
    if (await ctx.storage.kv.get([...PREFIX, candidate])) return true;
  }
  return false;
}
