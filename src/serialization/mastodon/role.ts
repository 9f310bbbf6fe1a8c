// Mastodon's Role entity for Wren's three roles. Mastodon's roles are database rows with a
// permission bitmask; Wren's are fixed, so they map onto Mastodon's built-in ones: everyone
// (id -99, may invite), Moderator and Admin (the `administrator` bit grants everything).

import type { Role } from "../../domain/user.ts";

export interface RoleJson {
  id: string;
  name: string;
  permissions: string;
  color: string;
  highlighted: boolean;
}

/** The short form on public accounts (`roles`), for highlighted roles only. */
export interface AccountRoleJson {
  id: string;
  name: string;
  color: string;
}

const INVITE_USERS = 1 << 16;
const ADMINISTRATOR = 1 << 0;
// view_dashboard | view_audit_log | manage_reports | manage_taxonomies | manage_users
const MODERATION = (1 << 3) | (1 << 2) | (1 << 4) | (1 << 8) | (1 << 10);

const ROLES: Record<Role, RoleJson> = {
  user: { id: "-99", name: "", permissions: String(INVITE_USERS), color: "", highlighted: false },
  moderator: {
    id: "1",
    name: "Moderator",
    permissions: String(INVITE_USERS | MODERATION),
    color: "",
    highlighted: true,
  },
  admin: {
    id: "2",
    name: "Admin",
    permissions: String(INVITE_USERS | ADMINISTRATOR),
    color: "",
    highlighted: true,
  },
};

export function serializeRole(role: Role): RoleJson {
  return { ...ROLES[role] };
}

export function serializeAccountRoles(role: Role | null): AccountRoleJson[] {
  if (role === null) return [];
  const { id, name, color, highlighted } = ROLES[role];
  return highlighted ? [{ id, name, color }] : [];
}
