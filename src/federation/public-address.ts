// Which IP addresses a remote fetch may connect to: only public unicast ones. Refused are the
// private, loopback, link-local, unique-local, shared (CGNAT), documentation, benchmarking,
// multicast and reserved ranges (IANA special-purpose registries), and IPv6 forms that carry
// an IPv4 address (mapped, NAT64, 6to4) when that IPv4 address is refused; IPv4-compatible
// addresses (`::a.b.c.d`, deprecated) always.

import { BlockList, isIP } from "node:net";

const V4_REFUSED: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (CGNAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
];

const V6_REFUSED: [string, number][] = [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["100::", 64], // discard
  ["2001::", 23], // IETF protocol assignments (Teredo, ORCHID…)
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["5f00::", 16], // segment routing
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];

const refusedV4 = new BlockList();
for (const [net, prefix] of V4_REFUSED) refusedV4.addSubnet(net, prefix, "ipv4");
const refusedV6 = new BlockList();
for (const [net, prefix] of V6_REFUSED) refusedV6.addSubnet(net, prefix, "ipv6");

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted quad handled). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string) =>
    part === "" ? [] : part.split(":").map((g) => Number.parseInt(g, 16));
  const front = parse(head);
  if (tail === undefined) return front;
  const back = parse(tail);
  return [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
}

/** The IPv4 address an IPv6 address carries (mapped, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (g.length !== 8) return undefined;
  const quad = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // ::ffff:a.b.c.d (mapped)
  if (zeros(0, 5) && g[5] === 0xffff) return quad(g[6] as number, g[7] as number);
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix) and 64:ff9b:1::/48 (local-use NAT64)
  if (g[0] === 0x64 && g[1] === 0xff9b) return quad(g[6] as number, g[7] as number);
  // 2002:AABB:CCDD::/48 (6to4)
  if (g[0] === 0x2002) return quad(g[1] as number, g[2] as number);
  return undefined;
}

/** True only for a public unicast IPv4 or IPv6 address; false for names and anything else. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  const family = isIP(bare);
  if (family === 4) return !refusedV4.check(bare, "ipv4");
  if (family !== 6) return false;
  if (refusedV6.check(bare, "ipv6")) return false;
  const g = ipv6Groups(bare);
  if (g.length !== 8) return false;
  // ::a.b.c.d (IPv4-compatible, deprecated) and the local-use NAT64 prefix 64:ff9b:1::/48
  if (g.slice(0, 6).every((x) => x === 0)) return false;
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return false;
  const v4 = embeddedIpv4(bare);
  return v4 === undefined || isPublicAddress(v4);
}
