// Mastodon's Role entity for Wren's fixed roles. Mastodon's roles are database rows with a
// permission bitmask; Wren's map onto Mastodon's default ones (config/roles.yml), with their ids
// in seeding order: everyone (-99), Moderator (1), Admin (2) and Owner (3). `permissions` is the
// computed bitmask as a decimal string (domain/permissions.ts). Pure.

import { permissionsOf } from "../../domain/permissions.ts";
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

const SHOWN: Record<Role, { id: string; name: string; highlighted: boolean }> = {
  user: { id: "-99", name: "", highlighted: false },
  moderator: { id: "1", name: "Moderator", highlighted: true },
  admin: { id: "2", name: "Admin", highlighted: true },
  owner: { id: "3", name: "Owner", highlighted: true },
};

/** The role behind a Role entity's id (the admin API's `role_ids[]`); undefined for others. */
export function roleOfId(id: string): Role | undefined {
  return (Object.keys(SHOWN) as Role[]).find((role) => SHOWN[role].id === id);
}

export function serializeRole(role: Role): RoleJson {
  const { id, name, highlighted } = SHOWN[role];
  return { id, name, permissions: String(permissionsOf(role)), color: "", highlighted };
}

export function serializeAccountRoles(role: Role | null): AccountRoleJson[] {
  if (role === null) return [];
  const { id, name, highlighted } = SHOWN[role];
  return highlighted ? [{ id, name, color: "" }] : [];
}
