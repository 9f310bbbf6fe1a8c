// What each of Wren's fixed roles may do, in the names of Mastodon's role permissions (its
// UserRole flags): admins everything, moderators the moderation tools, users only to invite.
// As in Mastodon's default roles, the server-level tools (domain blocks and allows:
// manage_federation; IP and email blocks: manage_blocks) are the admins' alone.
// The admin API checks these besides the token's admin:* scopes.

import type { Role } from "./user.ts";

export type Permission =
  | "invite_users"
  | "view_dashboard"
  | "view_audit_log"
  | "manage_reports"
  | "manage_taxonomies"
  | "manage_users"
  | "manage_federation"
  | "manage_blocks";

const MODERATOR: ReadonlySet<Permission> = new Set([
  "invite_users",
  "view_dashboard",
  "view_audit_log",
  "manage_reports",
  "manage_taxonomies",
  "manage_users",
]);

export function roleMay(role: Role, permission: Permission): boolean {
  if (role === "admin") return true;
  if (role === "moderator") return MODERATOR.has(permission);
  return permission === "invite_users";
}
