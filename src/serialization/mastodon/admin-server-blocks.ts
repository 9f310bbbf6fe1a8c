// The admin API's server-level records → Mastodon's entities: Admin::DomainBlock,
// Admin::DomainAllow, Admin::IpBlock, Admin::EmailDomainBlock (with its history) and
// Admin::CanonicalEmailBlock. Pure.

import { createHash } from "node:crypto";
import type {
  CanonicalEmailBlock,
  DomainAllow,
  DomainBlock,
  EmailDomainBlock,
  IpBlock,
} from "../../domain/server-blocks.ts";

/** SHA-256 hex of the domain: how a client matches a domain it knows in a public listing. */
export function domainDigest(domain: string): string {
  return createHash("sha256").update(domain).digest("hex");
}

export function serializeAdminDomainBlock(block: DomainBlock) {
  return {
    id: block.id,
    domain: block.domain,
    digest: domainDigest(block.domain),
    created_at: block.createdAt,
    severity: block.severity,
    reject_media: block.rejectMedia,
    reject_reports: block.rejectReports,
    private_comment: block.privateComment,
    public_comment: block.publicComment,
    obfuscate: block.obfuscate,
  };
}

export function serializeAdminDomainAllow(allow: DomainAllow) {
  return { id: allow.id, domain: allow.domain, created_at: allow.createdAt };
}

export function serializeAdminIpBlock(block: IpBlock) {
  return {
    id: block.id,
    ip: block.ip,
    severity: block.severity,
    comment: block.comment,
    created_at: block.createdAt,
    expires_at: block.expiresAt,
  };
}

/** `history`: days newest first, each with the sign-ups the block stopped (strings, as Mastodon). */
export function serializeAdminEmailDomainBlock(
  block: EmailDomainBlock,
  history: readonly { day: number; uses: number }[],
) {
  return {
    id: block.id,
    domain: block.domain,
    allow_with_approval: block.allowWithApproval,
    created_at: block.createdAt,
    history: history.map((h) => ({
      day: String(Math.floor(h.day / 1000)),
      accounts: String(h.uses),
      uses: String(h.uses),
    })),
  };
}

export function serializeAdminCanonicalEmailBlock(block: CanonicalEmailBlock) {
  return { id: block.id, canonical_email_hash: block.canonicalEmailHash };
}
