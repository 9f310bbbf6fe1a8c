// How server-level rules name hosts: the stored form of a domain, and the entries that would
// cover a host (itself and its parent domains), for domain blocks and domain allows alike.

import { isIP } from "node:net";
import { unprocessable } from "../../domain/errors.ts";
import { domainAndParents } from "../../domain/server-blocks.ts";

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
 * The rule entries that would cover a host: for a DNS name, the name and each parent domain
 * of two labels or more (`a.b.example` → `a.b.example`, `b.example`); for an IP address only
 * itself. Each with the host's port first (a rule for `host:port`) and then without (a rule
 * for the bare domain covers every port). A subdomain's rule never covers its parent.
 */
export function blockCandidates(host: string): readonly string[] {
  let candidates = knownCandidates.get(host);
  if (candidates === undefined) {
    candidates = Object.freeze(candidatesOf(host));
    if (knownCandidates.size >= KNOWN_HOSTS) knownCandidates.clear();
    knownCandidates.set(host, candidates);
  }
  return candidates;
}

/**
 * Hosts whose candidates were worked out: every inbox activity asks for its sender's host
 * several times over (the sender, the object, its media, this server's own), and the work
 * (a URL parse, regular expressions) was a few percent of an activity's CPU. Forgotten all at
 * once when full: a peer set that large is asked about rarely per host.
 */
const knownCandidates = new Map<string, readonly string[]>();
const KNOWN_HOSTS = 10_000;

function candidatesOf(host: string): string[] {
  let normalized: string;
  try {
    normalized = normalizeDomain(host);
  } catch {
    return [];
  }
  const { name, port } = splitHost(normalized);
  const names = isIP(name) !== 0 ? [name] : domainAndParents(name);
  return names.flatMap((n) =>
    port === null ? [joinHost(n, null)] : [joinHost(n, port), joinHost(n, null)],
  );
}

/** Whether `host` is this server's own domain (or under it): no rule may name it. */
export function isOwnDomain(ownDomain: string, domain: string): boolean {
  return blockCandidates(ownDomain).includes(domain);
}
