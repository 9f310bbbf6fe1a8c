// The address a request came from, as rate limits count it. IPv6 hands every subscriber a whole
// /64, so one person could rotate through billions of addresses; like Mastodon, we count a /64 as
// one caller. IPv4-mapped addresses (a dual-stack socket's `::ffff:1.2.3.4`) count as their IPv4.

import { BlockList, isIP, isIPv4, isIPv6 } from "node:net";
import type { Context } from "hono";
import { LruCache } from "../../domain/lru-cache.ts";
import type { HttpEnv } from "../env.ts";

/** The socket's peer address; "local" for in-process requests, which have no socket. */
export function remoteAddress(c: Context<HttpEnv>): string {
  // The Node adapter exposes the socket as env.incoming.
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)
    ?.incoming;
  return incoming?.socket?.remoteAddress ?? "local";
}

/** The first four groups of an IPv6 address, written out in full and lower case. */
function prefix64(address: string): string {
  const [head = "", tail] = address.split("::");
  const before = head === "" ? [] : head.split(":");
  const after = tail === undefined || tail === "" ? [] : tail.split(":");
  // A trailing dotted IPv4 part stands for two groups.
  const width = (groups: string[]) => groups.reduce((n, g) => n + (g.includes(".") ? 2 : 1), 0);
  const zeros = tail === undefined ? [] : Array(8 - width(before) - width(after)).fill("0");
  const groups = [...before, ...zeros, ...after].slice(0, 4);
  return `${groups.map((g) => Number.parseInt(g, 16).toString(16)).join(":")}::/64`;
}

/**
 * Recent addresses' counted forms: every anonymous API request asks (a split and three regular
 * expressions each, ~1% of its CPU); the answer depends on the address alone.
 */
const counted = new LruCache<string, string>(4096);

/** What a per-address limit counts: the IPv4 address, or the IPv6 /64 it belongs to. */
export function throttleableAddress(address: string): string {
  let form = counted.get(address);
  if (form === undefined) {
    form = countedForm(address);
    counted.set(address, form);
  }
  return form;
}

function countedForm(address: string): string {
  const plain = address.split("%")[0] as string;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped) return mapped[1] as string;
  if (isIPv4(plain) || !isIPv6(plain)) return plain;
  return prefix64(plain);
}

/** The client's own address (see clientAddressResolver), not widened to a /64: what IP blocks match. */
export function requestAddress(c: Context<HttpEnv>): string {
  return c.get("clientAddress") ?? remoteAddress(c);
}

/** What a per-address limit counts for this request (see clientAddressResolver). */
export function clientAddress(c: Context<HttpEnv>): string {
  return throttleableAddress(c.get("clientAddress") ?? remoteAddress(c));
}

function proxyList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = "", prefix] = entry.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

function isTrusted(list: BlockList, address: string): boolean {
  const plain = address.split("%")[0] as string;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped) return list.check(mapped[1] as string, "ipv4");
  const family = isIP(plain);
  return family !== 0 && list.check(plain, family === 6 ? "ipv6" : "ipv4");
}

/**
 * Works out the client's address once per request. Behind a reverse proxy every request comes
 * from the proxy, so when the peer is a trusted proxy the address is taken from X-Forwarded-For:
 * the nearest hop that is not itself a trusted proxy (hops further left could be forged by the
 * client). Anything else keeps the socket's peer address. Run before anything that reads
 * requestAddress or clientAddress (app.ts runs it first, with the IP blocks).
 */
export function clientAddressResolver(trusted: readonly string[]): (c: Context<HttpEnv>) => void {
  const list = proxyList(trusted);
  return (c) => {
    const peer = remoteAddress(c);
    let address = peer;
    const forwarded = c.req.header("x-forwarded-for");
    if (forwarded && isTrusted(list, peer)) {
      const hops = forwarded
        .split(",")
        .map((hop) => hop.trim())
        .filter((hop) => isIP(hop) !== 0);
      for (let i = hops.length - 1; i >= 0; i--) {
        address = hops[i] as string;
        if (!isTrusted(list, address)) break;
      }
    }
    c.set("clientAddress", address);
  };
}
