// Admin domain blocks (Mastodon's DomainBlock): a rule for a domain and its subdomains with a
// severity — `suspend` (nothing delivered, nothing taken in, follows ended, its content purged),
// `silence` (its accounts kept out of public timelines for non-followers) or `noop` — and the
// independent reject_media / reject_reports flags. Kept in the key–value store, one entry per
// domain, so every backend has them and `wren export` carries them. Entries written before
// severities existed hold only a domain and a time: they read as `suspend` blocks, with an id
// derived from both. The effects of a change are in domain-block-effects.ts.

import { createHash } from "node:crypto";
import { notFound, unprocessable } from "../../domain/errors.ts";
import {
  atLeastAsStrict,
  type DomainBlock,
  type DomainBlockSeverity,
} from "../../domain/server-blocks.ts";
import type { ServiceContext } from "../context.ts";
import { isAllowedDomain } from "./domain-allows.ts";
import { type BlockChangeResult, writeBlockChange } from "./domain-block-effects.ts";
import { blockCandidates, isOwnDomain, normalizeDomain } from "./hosts.ts";

export type { DomainBlock } from "../../domain/server-blocks.ts";
export { blockCandidates, normalizeDomain } from "./hosts.ts";

const PREFIX = ["wren", "domainBlock"] as const;

/** What an admin sets on a block; absent fields keep their value (or the default). */
export interface DomainBlockInput {
  severity?: DomainBlockSeverity | undefined;
  rejectMedia?: boolean | undefined;
  rejectReports?: boolean | undefined;
  privateComment?: string | null | undefined;
  publicComment?: string | null | undefined;
  obfuscate?: boolean | undefined;
}

/** An id for an entry from before ids: its time, and low bits from the domain (stable). */
function legacyId(domain: string, createdAt: string): string {
  const low = createHash("sha256").update(domain).digest().readUInt16BE(0);
  const ms = Number.isNaN(Date.parse(createdAt)) ? 0 : Date.parse(createdAt);
  return ((BigInt(ms) << 16n) + BigInt(low)).toString();
}

function readStored(value: unknown): DomainBlock | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Partial<DomainBlock> & { domain?: unknown; createdAt?: unknown };
  if (typeof v.domain !== "string") return undefined;
  const createdAt = typeof v.createdAt === "string" ? v.createdAt : new Date(0).toISOString();
  return {
    id: typeof v.id === "string" ? v.id : legacyId(v.domain, createdAt),
    domain: v.domain,
    severity: v.severity ?? "suspend",
    rejectMedia: v.rejectMedia ?? false,
    rejectReports: v.rejectReports ?? false,
    privateComment: v.privateComment ?? null,
    publicComment: v.publicComment ?? null,
    obfuscate: v.obfuscate ?? false,
    createdAt,
    updatedAt: typeof v.updatedAt === "string" ? v.updatedAt : createdAt,
  };
}

async function stored(ctx: ServiceContext, domain: string): Promise<DomainBlock | undefined> {
  return readStored((await ctx.storage.kv.get([...PREFIX, domain]))?.value);
}

async function save(ctx: ServiceContext, block: DomainBlock): Promise<void> {
  await ctx.storage.kv.set({ key: [...PREFIX, block.domain], value: block, expiresAt: null });
}

/** Every block, newest first. */
export async function listDomainBlocks(ctx: ServiceContext): Promise<DomainBlock[]> {
  const entries = await ctx.storage.kv.list(PREFIX);
  return entries
    .flatMap((e) => readStored(e.value) ?? [])
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
}

export async function getDomainBlock(ctx: ServiceContext, id: string): Promise<DomainBlock> {
  const found = (await listDomainBlocks(ctx)).find((b) => b.id === id);
  if (!found) throw notFound();
  return found;
}

/**
 * Every block by its domain, kept per storage while the key–value store's version of the
 * blocks holds (KvStore.version: this process's writes move it at once, another process's on
 * PostgreSQL through migration 0005's signal). Every inbox activity asks about its hosts three
 * to five times; each asking the store cost a read (a round trip on PostgreSQL) and, on
 * json-file, a hash and a copy per candidate.
 */
const kept = new WeakMap<object, { version: number; byDomain: Map<string, DomainBlock> }>();

async function blocksByDomain(ctx: ServiceContext): Promise<Map<string, DomainBlock>> {
  // Read before the list: a write during the list leaves the older number, read again next time.
  const version = ctx.storage.kv.version(PREFIX);
  const memo = kept.get(ctx.storage);
  if (memo && memo.version === version) return memo.byDomain;
  const byDomain = new Map<string, DomainBlock>();
  for (const entry of await ctx.storage.kv.list(PREFIX)) {
    const block = readStored(entry.value);
    // Filed under its key, the name lookups use (the stored domain is the same text).
    if (block) byDomain.set(entry.key[2] ?? block.domain, block);
  }
  kept.set(ctx.storage, { version, byDomain });
  return byDomain;
}

/** The rules that cover a host, the host's own first (see blockCandidates). */
async function coveringBlocks(ctx: ServiceContext, host: string): Promise<DomainBlock[]> {
  const candidates = blockCandidates(host);
  if (candidates.length === 0) return [];
  const byDomain = await blocksByDomain(ctx);
  return candidates.flatMap((c) => byDomain.get(c) ?? []);
}

/**
 * What applies to a host: the strictest severity among the blocks covering it, and each flag
 * if any of them sets it. Undefined when no block covers it.
 */
export async function domainPolicy(
  ctx: ServiceContext,
  host: string,
): Promise<Pick<DomainBlock, "severity" | "rejectMedia" | "rejectReports"> | undefined> {
  const blocks = await coveringBlocks(ctx, host);
  if (blocks.length === 0) return undefined;
  return {
    severity: blocks.reduce<DomainBlockSeverity>(
      (s, b) => (atLeastAsStrict(b.severity, s) ? b.severity : s),
      "noop",
    ),
    rejectMedia: blocks.some((b) => b.rejectMedia || b.severity === "suspend"),
    rejectReports: blocks.some((b) => b.rejectReports || b.severity === "suspend"),
  };
}

/** Whether the media of a host's accounts are left where they are (reject_media, or suspend). */
export async function rejectsMedia(ctx: ServiceContext, host: string | null): Promise<boolean> {
  return host !== null && host !== "" && (await domainPolicy(ctx, host))?.rejectMedia === true;
}

/** Whether reports (Flag) from a host are ignored (reject_reports, or suspend). */
export async function rejectsReports(ctx: ServiceContext, host: string | null): Promise<boolean> {
  return host !== null && host !== "" && (await domainPolicy(ctx, host))?.rejectReports === true;
}

/** The hosts among `hosts` a `silence` (or stricter) block covers. */
export async function silencedHosts(
  ctx: ServiceContext,
  hosts: Iterable<string>,
): Promise<Set<string>> {
  const out = new Set<string>();
  for (const host of new Set(hosts)) {
    const policy = await domainPolicy(ctx, host);
    if (policy && atLeastAsStrict(policy.severity, "silence")) out.add(host);
  }
  return out;
}

/**
 * True when nothing may be exchanged with the host: a `suspend` block covers it, or the
 * federation runs in allow-list mode and no allow covers it. This server's own host never is.
 */
export async function isDomainBlocked(ctx: ServiceContext, host: string): Promise<boolean> {
  const [self] = blockCandidates(host);
  if (self === undefined || self === blockCandidates(ctx.settings.domain)[0]) return false;
  if (ctx.settings.federationMode === "allowlist" && !(await isAllowedDomain(ctx, host))) {
    return true;
  }
  return (await coveringBlocks(ctx, host)).some((b) => b.severity === "suspend");
}

function withInput(block: DomainBlock, input: DomainBlockInput, now: string): DomainBlock {
  return {
    ...block,
    severity: input.severity ?? block.severity,
    rejectMedia: input.rejectMedia ?? block.rejectMedia,
    rejectReports: input.rejectReports ?? block.rejectReports,
    privateComment:
      input.privateComment === undefined ? block.privateComment : input.privateComment || null,
    publicComment:
      input.publicComment === undefined ? block.publicComment : input.publicComment || null,
    obfuscate: input.obfuscate ?? block.obfuscate,
    updatedAt: now,
  };
}

function ownDomainCheck(ctx: ServiceContext, domain: string): void {
  // Our own host (or a parent of it) would block nothing remote and confuse every check.
  if (isOwnDomain(ctx.settings.domain, domain)) {
    throw unprocessable(`${domain} is this server's own domain`);
  }
}

export interface BlockDomainResult extends BlockChangeResult {
  block: DomainBlock;
}

/**
 * The block in the way of a new one (Mastodon answers 422 with it): one of the domain or of a
 * parent of it, at the same or a stricter severity. A weaker block of the same domain is not in
 * the way: creating makes it stricter.
 */
export async function conflictingDomainBlock(
  ctx: ServiceContext,
  domain: string,
  severity: DomainBlockSeverity,
): Promise<DomainBlock | undefined> {
  return (await coveringBlocks(ctx, normalizeDomain(domain))).find((b) =>
    atLeastAsStrict(b.severity, severity),
  );
}

/** POST /api/v1/admin/domain_blocks: a new block (severity `silence` unless given). */
export async function createDomainBlock(
  ctx: ServiceContext,
  domain: string,
  input: DomainBlockInput,
): Promise<BlockDomainResult> {
  const normalized = normalizeDomain(domain);
  ownDomainCheck(ctx, normalized);
  const severity = input.severity ?? "silence";
  const existing = await conflictingDomainBlock(ctx, normalized, severity);
  if (existing)
    throw unprocessable(`You have already imposed stricter limits on ${existing.domain}.`);
  return upsert(ctx, normalized, { ...input, severity });
}

/** `wren domain block`: creates the block or changes the one there (no error when blocked). */
export async function blockDomain(
  ctx: ServiceContext,
  domain: string,
  input: DomainBlockInput = { severity: "suspend" },
): Promise<BlockDomainResult> {
  const normalized = normalizeDomain(domain);
  ownDomainCheck(ctx, normalized);
  return upsert(ctx, normalized, input);
}

async function upsert(
  ctx: ServiceContext,
  domain: string,
  input: DomainBlockInput,
): Promise<BlockDomainResult> {
  const now = ctx.clock.now().toISOString();
  const before = await stored(ctx, domain);
  const base: DomainBlock = before ?? {
    id: ctx.ids.next(),
    domain,
    severity: "suspend",
    rejectMedia: false,
    rejectReports: false,
    privateComment: null,
    publicComment: null,
    obfuscate: false,
    createdAt: now,
    updatedAt: now,
  };
  const block = withInput(base, input, now);
  return { block, ...(await writeBlockChange(ctx, before, block, () => save(ctx, block))) };
}

/** PUT /api/v1/admin/domain_blocks/:id. */
export async function updateDomainBlock(
  ctx: ServiceContext,
  id: string,
  input: DomainBlockInput,
): Promise<DomainBlock> {
  const before = await getDomainBlock(ctx, id);
  const block = withInput(before, input, ctx.clock.now().toISOString());
  await writeBlockChange(ctx, before, block, () => save(ctx, block));
  return block;
}

/** DELETE /api/v1/admin/domain_blocks/:id: lifts the block. */
export async function removeDomainBlock(ctx: ServiceContext, id: string): Promise<DomainBlock> {
  const block = await getDomainBlock(ctx, id);
  await writeBlockChange(ctx, block, undefined, async () => {
    await ctx.storage.kv.delete([...PREFIX, block.domain]);
  });
  return block;
}

/** `wren domain unblock`: false when the domain was not blocked. */
export async function unblockDomain(ctx: ServiceContext, domain: string): Promise<boolean> {
  const block = await stored(ctx, normalizeDomain(domain));
  if (!block) return false;
  await removeDomainBlock(ctx, block.id);
  return true;
}

/** The block of exactly this (normalised) domain, if any. */
export function domainBlockOf(
  ctx: ServiceContext,
  domain: string,
): Promise<DomainBlock | undefined> {
  return stored(ctx, domain);
}
