// What each of Wren's fixed roles may do, in Mastodon's role permissions (its UserRole flags,
// with their bit values, which the API shows as a decimal bitmask). Wren's roles are Mastodon's
// default ones (config/roles.yml): everyone may invite; moderators hold the moderation tools;
// admins everything but the `administrator` and `view_devops` bits; the owner holds
// `administrator`, which grants everything. The admin API checks these besides the token's
// admin:* scopes.

import type { Role } from "./user.ts";

export const PERMISSION_BITS = {
  administrator: 1 << 0,
  view_devops: 1 << 1,
  view_audit_log: 1 << 2,
  view_dashboard: 1 << 3,
  manage_reports: 1 << 4,
  manage_federation: 1 << 5,
  manage_settings: 1 << 6,
  manage_blocks: 1 << 7,
  manage_taxonomies: 1 << 8,
  manage_appeals: 1 << 9,
  manage_users: 1 << 10,
  manage_invites: 1 << 11,
  manage_rules: 1 << 12,
  manage_announcements: 1 << 13,
  manage_custom_emojis: 1 << 14,
  manage_webhooks: 1 << 15,
  invite_users: 1 << 16,
  manage_roles: 1 << 17,
  manage_user_access: 1 << 18,
  delete_user_data: 1 << 19,
} as const;

export type Permission = keyof typeof PERMISSION_BITS;

const ALL = Object.values(PERMISSION_BITS).reduce((a, b) => a | b, 0);

function bitsOf(names: readonly Permission[]): number {
  return names.reduce((mask, name) => mask | PERMISSION_BITS[name], 0);
}

const EVERYONE: readonly Permission[] = ["invite_users"];

const MODERATOR: readonly Permission[] = [
  ...EVERYONE,
  "view_dashboard",
  "view_audit_log",
  "manage_users",
  "manage_reports",
  "manage_taxonomies",
];

const ADMIN: readonly Permission[] = [
  ...MODERATOR,
  "manage_user_access",
  "delete_user_data",
  "manage_federation",
  "manage_settings",
  "manage_blocks",
  "manage_appeals",
  "manage_rules",
  "manage_invites",
  "manage_announcements",
  "manage_custom_emojis",
  "manage_webhooks",
  "manage_roles",
];

/**
 * The role's computed permissions, as Mastodon computes them: the everyone role's bits plus the
 * role's own, and every bit when `administrator` is among them.
 */
export function permissionsOf(role: Role): number {
  switch (role) {
    case "owner":
      return ALL;
    case "admin":
      return bitsOf(ADMIN);
    case "moderator":
      return bitsOf(MODERATOR);
    case "user":
      return bitsOf(EVERYONE);
  }
}

export function roleMay(role: Role, permission: Permission): boolean {
  const bit = PERMISSION_BITS[permission];
  return (permissionsOf(role) & bit) === bit;
}

/** Mastodon's role positions: a moderator may act only on accounts of a lower position. */
const POSITION: Record<Role, number> = { user: -1, moderator: 10, admin: 100, owner: 1000 };

/** Whether a holder of `role` may act on an account of role `other` (Mastodon's `overrides?`). */
export function roleOverrides(role: Role, other: Role | null): boolean {
  return other === null || POSITION[role] > POSITION[other];
}

/** Roles that may use the moderation tools (the staff). */
export function isStaff(role: Role): boolean {
  return roleMay(role, "manage_reports");
}
