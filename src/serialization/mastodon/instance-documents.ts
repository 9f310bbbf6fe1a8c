// The instance's documents and public figures → Mastodon's entities: ExtendedDescription,
// PrivacyPolicy, TermsOfService, the activity weeks and the public DomainBlock list. Pure.

import { type DomainBlock, obfuscateDomain } from "../../domain/server-blocks.ts";
import type { InstanceDocument } from "../../services/instance/documents.ts";
import type { TermsStanding } from "../../services/instance/terms.ts";
import type { ActivityWeek } from "../../views/instance-activity.ts";
import { domainDigest } from "./admin-server-blocks.ts";

/** Unset, Mastodon answers an empty description with a null `updated_at`. */
export function serializeExtendedDescription(document: InstanceDocument | undefined) {
  return { updated_at: document?.updatedAt ?? null, content: document?.content ?? "" };
}

export function serializePrivacyPolicy(document: InstanceDocument) {
  return { updated_at: document.updatedAt, content: document.content };
}

export function serializeTermsOfService(terms: TermsStanding) {
  return {
    effective_date: terms.version.effectiveDate,
    effective: terms.effective,
    content: terms.version.content,
    succeeded_by: terms.succeededBy,
  };
}

/** Every figure a string, the week its start in Unix seconds, as Mastodon sends them. */
export function serializeActivity(weeks: readonly ActivityWeek[]) {
  return weeks.map((w) => ({
    week: String(Math.floor(w.weekStart / 1000)),
    statuses: String(w.statuses),
    logins: String(w.logins),
    registrations: String(w.registrations),
  }));
}

/**
 * The public list of limited servers (Mastodon leaves `noop` blocks out): an obfuscated block
 * shows its domain with the middle masked (domain/server-blocks.ts), `digest` is always the
 * SHA-256 of the real domain so a client can match a domain it knows, `comment` is the block's
 * public comment (left out without one).
 */
export function serializePublicDomainBlocks(blocks: readonly DomainBlock[]) {
  return [...blocks]
    .filter((block) => block.severity !== "noop")
    .sort((a, b) => a.domain.localeCompare(b.domain))
    .map((block) => ({
      domain: block.obfuscate ? obfuscateDomain(block.domain) : block.domain,
      digest: domainDigest(block.domain),
      severity: block.severity,
      ...(block.publicComment ? { comment: block.publicComment } : {}),
    }));
}
