// Server-level moderation records, as Mastodon's admin entities name them: domain blocks (with a
// severity), domain allows (the allow-list federation mode), IP blocks and email blocks (by
// domain, and by canonical address). Pure rules only; the records live in the key–value store
// (services/domain-blocks/, services/address-blocks/).

import { compareIds } from "./ids.ts";

/** Mastodon's DomainBlock severities, weakest first. */
export const DOMAIN_BLOCK_SEVERITIES = ["noop", "silence", "suspend"] as const;
export type DomainBlockSeverity = (typeof DOMAIN_BLOCK_SEVERITIES)[number];

export interface DomainBlock {
  id: string;
  /** Normalised host (services/domain-blocks/domain-blocks.ts, normalizeDomain). */
  domain: string;
  severity: DomainBlockSeverity;
  rejectMedia: boolean;
  rejectReports: boolean;
  privateComment: string | null;
  publicComment: string | null;
  obfuscate: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface DomainAllow {
  id: string;
  domain: string;
  createdAt: string;
}

export const IP_BLOCK_SEVERITIES = [
  "sign_up_requires_approval",
  "sign_up_block",
  "no_access",
] as const;
export type IpBlockSeverity = (typeof IP_BLOCK_SEVERITIES)[number];

export interface IpBlock {
  id: string;
  /** A CIDR range, `address/prefix` (a single address has the full prefix, /32 or /128). */
  ip: string;
  severity: IpBlockSeverity;
  comment: string;
  createdAt: string;
  /** ISO time after which the block no longer applies; null: for good. */
  expiresAt: string | null;
}

export interface EmailDomainBlock {
  id: string;
  domain: string;
  /** Sign-ups from the domain are taken but wait for a moderator, instead of being refused. */
  allowWithApproval: boolean;
  createdAt: string;
}

export interface CanonicalEmailBlock {
  id: string;
  /** SHA-256 hex of the canonical address (canonicalEmail). */
  canonicalEmailHash: string;
  createdAt: string;
}

/** True when `a` restricts at least as much as `b`. */
export function atLeastAsStrict(a: DomainBlockSeverity, b: DomainBlockSeverity): boolean {
  return DOMAIN_BLOCK_SEVERITIES.indexOf(a) >= DOMAIN_BLOCK_SEVERITIES.indexOf(b);
}

/**
 * The domain as an obfuscated public listing shows it: the characters of the middle half become
 * `*`, dots stay, so readers can tell which server is meant without a searchable name.
 */
export function obfuscateDomain(domain: string): string {
  const chars = [...domain];
  const keep = Math.floor(chars.length / 4);
  return chars
    .map((ch, i) => (i > keep && i < chars.length - keep && ch !== "." ? "*" : ch))
    .join("");
}

/**
 * The address every variant of a mailbox shares, as Mastodon's canonical email blocks compute
 * it: lower case, and in the local part the dots removed and a `+tag` dropped.
 */
export function canonicalEmail(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.indexOf("@");
  const local = at === -1 ? lower : lower.slice(0, at);
  const domain = at === -1 ? "" : lower.slice(at + 1);
  const base = local.replaceAll(".", "").split("+")[0] ?? "";
  return `${base}@${domain}`;
}

/** The domain of an address (lower case, without a trailing dot); "" when it has none. */
export function emailDomainOf(email: string): string {
  const at = email.lastIndexOf("@");
  return at === -1
    ? ""
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase()
        .replace(/\.$/, "");
}

/** The domain and each parent of two labels or more: `a.mail.example` → it, `mail.example`… */
export function domainAndParents(domain: string): string[] {
  const labels = domain.split(".");
  const out: string[] = [];
  for (let i = 0; i < labels.length; i++) {
    if (i > 0 && labels.length - i < 2) break;
    out.push(labels.slice(i).join("."));
  }
  return out;
}

/** Whether an IP block is in force at `now`. */
export function ipBlockActive(block: IpBlock, now: Date): boolean {
  return block.expiresAt === null || Date.parse(block.expiresAt) > now.getTime();
}

/**
 * An in-memory list of records with ids, paged as Mastodon pages its admin lists: newest first,
 * `max_id`/`since_id`/`min_id` bounds (min_id: the oldest above it, still shown newest first).
 */
export function pageRecordsById<T extends { id: string }>(
  records: readonly T[],
  page: {
    limit: number;
    maxId?: string | undefined;
    sinceId?: string | undefined;
    minId?: string | undefined;
  },
): T[] {
  const { maxId, sinceId, minId } = page;
  const within = records
    .filter((r) => maxId === undefined || compareIds(r.id, maxId) < 0)
    .filter((r) => sinceId === undefined || compareIds(r.id, sinceId) > 0)
    .filter((r) => minId === undefined || compareIds(r.id, minId) > 0)
    .sort((a, b) => compareIds(b.id, a.id));
  return minId !== undefined && sinceId === undefined
    ? within.slice(Math.max(0, within.length - page.limit))
    : within.slice(0, page.limit);
}
