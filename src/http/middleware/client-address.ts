// The address a request came from, as rate limits count it. IPv6 hands every subscriber a whole
// /64, so one person could rotate through billions of addresses; like Mastodon, we count a /64 as
// one caller. IPv4-mapped addresses (a dual-stack socket's `::ffff:1.2.3.4`) count as their IPv4.

import { isIPv4, isIPv6 } from "node:net";
import type { Context } from "hono";
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

/** What a per-address limit counts: the IPv4 address, or the IPv6 /64 it belongs to. */
export function throttleableAddress(address: string): string {
  const plain = address.split("%")[0] as string;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped) return mapped[1] as string;
  if (isIPv4(plain) || !isIPv6(plain)) return plain;
  return prefix64(plain);
}

export function clientAddress(c: Context<HttpEnv>): string {
  return throttleableAddress(remoteAddress(c));
}
