// The instance's documents and public figures → Mastodon's entities: ExtendedDescription,
// PrivacyPolicy, TermsOfService, the activity weeks and the public DomainBlock list. Pure.

import { createHash } from "node:crypto";
import type { DomainBlock } from "../../services/domain-blocks/domain-blocks.ts";
import type { InstanceDocument } from "../../services/instance/documents.ts";
import type { TermsStanding } from "../../services/instance/terms.ts";
import type { ActivityWeek } from "../../views/instance-activity.ts";

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
 * Wren's block is Mastodon's `suspend` (nothing delivered, nothing taken in). Wren keeps no
 * public rationale nor an obfuscation choice, so the domain is shown whole and `comment` is left
 * out. `digest` is the SHA-256 of the domain, so a client can match a domain it knows.
 */
export function serializePublicDomainBlocks(blocks: readonly DomainBlock[]) {
  return [...blocks]
    .sort((a, b) => a.domain.localeCompare(b.domain))
    .map((block) => ({
      domain: block.domain,
      digest: createHash("sha256").update(block.domain).digest("hex"),
      severity: "suspend",
    }));
}
