// What each of Wren's fixed roles may do, in the names of Mastodon's role permissions (its
// UserRole flags): admins everything (the server's settings, rules and federation too),
// moderators the moderation tools, users only to invite.
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
  | "manage_settings"
  | "manage_rules";

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
