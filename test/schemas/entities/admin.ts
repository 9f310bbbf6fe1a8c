/**
 * The admin API's entities, from Mastodon's documentation (entities/Admin_Account.md,
 * Admin_Report.md, Admin_Ip.md). A remote account has no user: Mastodon's serializer answers
 * null for its email, locale and role, hence nullable where the page says "String".
 */
import {
  arrayOf,
  boolean,
  dateTime,
  email,
  entity,
  language,
  nullable,
  object,
  oneOf,
  string,
} from "../json-schema.ts";

export const AdminIp = object(
  { ip: string, used_at: dateTime },
  {},
  "An IP address a user signed in from",
);

export const AdminAccount = object(
  {
    id: string,
    username: string,
    domain: nullable(string),
    created_at: dateTime,
    email: nullable(email),
    ip: nullable(string),
    ips: arrayOf(entity("AdminIp")),
    locale: nullable(language),
    invite_request: nullable(string),
    role: nullable(entity("Role")),
    confirmed: boolean,
    approved: boolean,
    disabled: boolean,
    silenced: boolean,
    suspended: boolean,
    sensitized: boolean,
    account: entity("Account"),
  },
  {
    created_by_application_id: string,
    invited_by_account_id: string,
  },
  "An account as the moderators see it",
);

export const AdminReport = object(
  {
    id: string,
    action_taken: boolean,
    action_taken_at: nullable(dateTime),
    category: oneOf("spam", "legal", "violation", "other"),
    comment: string,
    forwarded: boolean,
    created_at: dateTime,
    updated_at: dateTime,
    account: entity("AdminAccount"),
    target_account: entity("AdminAccount"),
    assigned_account: nullable(entity("AdminAccount")),
    action_taken_by_account: nullable(entity("AdminAccount")),
    statuses: arrayOf(entity("Status")),
    rules: arrayOf(entity("Rule")),
  },
  {},
  "A report as the moderators see it",
);
