// OAuth scopes as Mastodon defines them. A token holds a set of scopes; an endpoint names the
// scopes that admit it (any one suffices). Top-level scopes admit their granular children:
// `read` admits `read:statuses`, `admin:read` admits `admin:read:accounts`. The legacy `follow`
// scope admits the follow, block and mute families of `read` and `write`.

const READ = [
  "accounts",
  "blocks",
  "bookmarks",
  "collections",
  "favourites",
  "filters",
  "follows",
  "lists",
  "mutes",
  "notifications",
  "search",
  "statuses",
] as const;
const WRITE = [
  "accounts",
  "blocks",
  "bookmarks",
  "collections",
  "conversations",
  "favourites",
  "filters",
  "follows",
  "lists",
  "media",
  "mutes",
  "notifications",
  "reports",
  "statuses",
] as const;
const ADMIN_READ = [
  "accounts",
  "reports",
  "domain_allows",
  "domain_blocks",
  "ip_blocks",
  "email_domain_blocks",
  "canonical_email_blocks",
] as const;
const ADMIN_WRITE = ADMIN_READ;

export const ALL_SCOPES: ReadonlySet<string> = new Set([
  "read",
  "write",
  "follow",
  "push",
  "profile",
  "admin:read",
  "admin:write",
  ...READ.map((s) => `read:${s}`),
  ...WRITE.map((s) => `write:${s}`),
  ...ADMIN_READ.map((s) => `admin:read:${s}`),
  ...ADMIN_WRITE.map((s) => `admin:write:${s}`),
]);

const FOLLOW_FAMILY = new Set([
  "read:follows",
  "write:follows",
  "read:blocks",
  "write:blocks",
  "read:mutes",
  "write:mutes",
]);

export const DEFAULT_SCOPES = ["read"];

/** Splits a space- or plus-separated scope string; empty input gives the default `read`. */
export function parseScopes(value: string | undefined | null): string[] {
  const parts = (value ?? "")
    .split(/[\s+]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  return parts.length === 0 ? [...DEFAULT_SCOPES] : [...new Set(parts)];
}

export function unknownScopes(scopes: readonly string[]): string[] {
  return scopes.filter((s) => !ALL_SCOPES.has(s));
}

/** Does a token holding `held` satisfy the single scope `wanted`? */
export function scopeAdmits(held: readonly string[], wanted: string): boolean {
  for (const scope of held) {
    if (scope === wanted) return true;
    if (wanted.startsWith(`${scope}:`)) return true;
    if (scope === "follow" && FOLLOW_FAMILY.has(wanted)) return true;
  }
  return false;
}

/** True when `held` satisfies any one of `accepted` (an endpoint's alternatives). */
export function scopesAdmit(held: readonly string[], accepted: readonly string[]): boolean {
  return accepted.some((wanted) => scopeAdmits(held, wanted));
}

/** Is every requested scope within what an app registered (for the authorize step)? */
export function scopesWithin(requested: readonly string[], registered: readonly string[]) {
  return requested.every((s) => scopeAdmits(registered, s));
}
