// Admin IP blocks (Mastodon's IpBlock): a CIDR range with a severity — `no_access` (every request
// from it refused, http/middleware/ip-access.ts), `sign_up_block` (sign-up refused) or
// `sign_up_requires_approval` (a sign-up from it waits for a moderator) — optionally until a
// time, after which it is ignored (and pruned with the key–value store's expired entries). One
// key–value entry per block. The list is read again only when the IP-block entries changed
// (KvStore.version of their prefix, which every process sharing a database sees move; not
// Storage.version(), which every post, favourite or follow moves, nor the whole store's, which
// every preview card or activity mark moves), so checking each request costs no query in the
// usual case.

import { BlockList, isIP } from "node:net";
import { notFound, unprocessable } from "../../domain/errors.ts";
import {
  IP_BLOCK_SEVERITIES,
  type IpBlock,
  type IpBlockSeverity,
  ipBlockActive,
} from "../../domain/server-blocks.ts";
import type { Storage } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";

const PREFIX = ["wren", "ipBlock"] as const;

function readStored(value: unknown): IpBlock | undefined {
  const v = value as Partial<IpBlock> | null | undefined;
  return v && typeof v.id === "string" && typeof v.ip === "string" ? (v as IpBlock) : undefined;
}

/** An address without its zone, IPv4-mapped IPv6 as IPv4. */
function plainAddress(address: string): string {
  const plain = address.split("%")[0] as string;
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain)?.[1] ?? plain;
}

/** `address` or `address/prefix` → `address/prefix`; 422 for anything else. */
export function normalizeCidr(ip: string): string {
  const [rawAddress = "", prefix, ...rest] = ip.trim().split("/");
  const address = plainAddress(rawAddress);
  const family = isIP(address);
  const max = family === 6 ? 128 : 32;
  const bits = prefix === undefined ? max : Number(prefix);
  if (family === 0 || rest.length > 0 || !Number.isInteger(bits) || bits < 0 || bits > max) {
    throw unprocessable("Validation failed: Ip is invalid");
  }
  if (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) {
    throw unprocessable("Validation failed: Ip is invalid");
  }
  return `${address}/${bits}`;
}

function contains(cidr: string, address: string): boolean {
  const [net = "", bits = "0"] = cidr.split("/");
  const family = isIP(net) === 6 ? "ipv6" : "ipv4";
  const list = new BlockList();
  list.addSubnet(net, Number(bits), family);
  const plain = plainAddress(address);
  const type = isIP(plain);
  return type !== 0 && list.check(plain, type === 6 ? "ipv6" : "ipv4");
}

export interface IpBlockInput {
  ip?: string | undefined;
  severity?: IpBlockSeverity | undefined;
  comment?: string | undefined;
  /** Seconds from now; null: no end. */
  expiresIn?: number | null | undefined;
}

const memo = new WeakMap<Storage, { version: number; blocks: IpBlock[] }>();

/** Every block, expired ones too, newest first. */
export async function listIpBlocks(ctx: ServiceContext): Promise<IpBlock[]> {
  const version = ctx.storage.kv.version(PREFIX);
  const kept = memo.get(ctx.storage);
  if (kept && kept.version === version) return kept.blocks;
  const entries = await ctx.storage.kv.list(PREFIX);
  const blocks = entries
    .flatMap((e) => readStored(e.value) ?? [])
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  memo.set(ctx.storage, { version, blocks });
  return blocks;
}

/**
 * True when the blocks were read at the storage's current version and there are none: every
 * request asks, and most servers have no block, so the answer then comes without a promise.
 */
export function knownNoIpBlocks(ctx: ServiceContext): boolean {
  const kept = memo.get(ctx.storage);
  return (
    kept !== undefined &&
    kept.version === ctx.storage.kv.version(PREFIX) &&
    kept.blocks.length === 0
  );
}

export async function getIpBlock(ctx: ServiceContext, id: string): Promise<IpBlock> {
  if (!/^[0-9]{1,25}$/.test(id)) throw notFound();
  const found = readStored((await ctx.storage.kv.get([...PREFIX, id]))?.value);
  if (!found) throw notFound();
  return found;
}

function expiry(ctx: ServiceContext, seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined) return null;
  if (!Number.isInteger(seconds) || seconds <= 0) {
    throw unprocessable("Validation failed: Expires in must be a positive number of seconds");
  }
  return new Date(ctx.clock.now().getTime() + seconds * 1000).toISOString();
}

async function save(ctx: ServiceContext, block: IpBlock): Promise<void> {
  await ctx.storage.kv.set({
    key: [...PREFIX, block.id],
    value: block,
    expiresAt: block.expiresAt,
  });
}

export async function createIpBlock(ctx: ServiceContext, input: IpBlockInput): Promise<IpBlock> {
  if (input.ip === undefined || input.ip.trim() === "") {
    throw unprocessable("Validation failed: Ip can't be blank");
  }
  if (input.severity === undefined || !IP_BLOCK_SEVERITIES.includes(input.severity)) {
    throw unprocessable("Validation failed: Severity can't be blank");
  }
  const ip = normalizeCidr(input.ip);
  const now = ctx.clock.now();
  if ((await listIpBlocks(ctx)).some((b) => b.ip === ip && ipBlockActive(b, now))) {
    throw unprocessable("Validation failed: Ip has already been taken");
  }
  const block: IpBlock = {
    id: ctx.ids.next(),
    ip,
    severity: input.severity,
    comment: input.comment ?? "",
    createdAt: now.toISOString(),
    expiresAt: expiry(ctx, input.expiresIn),
  };
  await save(ctx, block);
  return block;
}

export async function updateIpBlock(
  ctx: ServiceContext,
  id: string,
  input: IpBlockInput,
): Promise<IpBlock> {
  const current = await getIpBlock(ctx, id);
  const block: IpBlock = {
    ...current,
    ip: input.ip === undefined ? current.ip : normalizeCidr(input.ip),
    severity: input.severity ?? current.severity,
    comment: input.comment ?? current.comment,
    expiresAt: input.expiresIn === undefined ? current.expiresAt : expiry(ctx, input.expiresIn),
  };
  await save(ctx, block);
  return block;
}

export async function removeIpBlock(ctx: ServiceContext, id: string): Promise<IpBlock> {
  const block = await getIpBlock(ctx, id);
  await ctx.storage.kv.delete([...PREFIX, id]);
  return block;
}

/** `wren ip-block remove`: the blocks of exactly this range go; how many. */
export async function removeIpBlocksOf(ctx: ServiceContext, ip: string): Promise<number> {
  const cidr = normalizeCidr(ip);
  let removed = 0;
  for (const block of await listIpBlocks(ctx)) {
    if (block.ip === cidr && (await ctx.storage.kv.delete([...PREFIX, block.id]))) removed++;
  }
  return removed;
}

/** The severities of the blocks in force that cover the address. */
export async function ipBlockSeverities(
  ctx: ServiceContext,
  address: string,
): Promise<Set<IpBlockSeverity>> {
  const blocks = await listIpBlocks(ctx);
  const out = new Set<IpBlockSeverity>();
  if (blocks.length === 0) return out;
  const now = ctx.clock.now();
  for (const block of blocks) {
    if (ipBlockActive(block, now) && contains(block.ip, address)) out.add(block.severity);
  }
  return out;
}
