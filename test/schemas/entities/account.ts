/**
 * Account and its flavours, from Mastodon's documentation (entities/Account.md,
 * entities/Role.md): a user and their profile as every API answer shows it.
 */
import {
  arrayOf,
  boolean,
  date,
  dateTime,
  entity,
  extend,
  integer,
  language,
  nullable,
  object,
  oneOf,
  type Schema,
  string,
  uri,
} from "../json-schema.ts";

/** A profile metadata pair; `verified_at` is set when the value links back with rel="me". */
export const Field = object(
  { name: string, value: string },
  { verified_at: nullable(dateTime) },
  "A name-value pair of profile metadata",
);

/** A role shown on a profile (`roles[]`): only the public parts of Role. */
export const AccountRole = object(
  { id: string, name: string, color: string },
  {},
  "A role displayed on a profile",
);

/** The role of the signed-in user (`role` of CredentialAccount). */
export const Role = object(
  { id: string, name: string, color: string, permissions: string, highlighted: boolean },
  { collection_limit: nullable(integer) },
  "The permissions of the signed-in user",
);

export const Account: Schema = object(
  {
    id: string,
    username: string,
    acct: string,
    uri,
    display_name: string,
    note: string,
    avatar: uri,
    avatar_static: uri,
    header: uri,
    header_static: uri,
    locked: boolean,
    fields: arrayOf(entity("Field")),
    emojis: arrayOf(entity("CustomEmoji")),
    bot: boolean,
    group: boolean,
    indexable: boolean,
    created_at: dateTime,
    statuses_count: integer,
    followers_count: integer,
    following_count: integer,
  },
  {
    url: nullable(uri),
    avatar_description: nullable(string),
    header_description: nullable(string),
    discoverable: nullable(boolean),
    noindex: nullable(boolean),
    hide_collections: nullable(boolean),
    moved: nullable(entity("Account")),
    suspended: nullable(boolean),
    limited: nullable(boolean),
    memorial: nullable(boolean),
    last_status_at: nullable(date),
    roles: nullable(arrayOf(entity("AccountRole"))),
    show_featured: nullable(boolean),
    show_media: nullable(boolean),
    show_media_replies: nullable(boolean),
    feature_approval: nullable({ type: "object" }),
  },
  "A user of the server and their profile",
);

/** `source` of CredentialAccount: the raw values behind the rendered profile, for editing. */
const Source = object(
  {
    note: string,
    fields: arrayOf(entity("Field")),
    privacy: oneOf("public", "unlisted", "private", "direct"),
    sensitive: boolean,
    follow_requests_count: integer,
    indexable: boolean,
  },
  {
    language: nullable(language),
    discoverable: nullable(boolean),
    hide_collections: nullable(boolean),
    attribution_domains: nullable(arrayOf(string)),
    quote_policy: oneOf("public", "followers", "nobody"),
  },
);

/** What verify_credentials and update_credentials answer: the account plus its source and role. */
export const CredentialAccount = extend(
  Account,
  { source: Source, role: entity("Role") },
  {},
  "The signed-in user's own account",
);

/** An entry of GET /api/v1/mutes: the account plus when the mute ends. */
export const MutedAccount = extend(
  Account,
  {},
  { mute_expires_at: nullable(dateTime) },
  "A muted account",
);

/** Notification grouping's lighter account (`partial_accounts`). */
export const PartialAccountWithAvatar = object(
  {
    id: string,
    acct: string,
    url: uri,
    avatar: uri,
    avatar_static: uri,
    locked: boolean,
    bot: boolean,
  },
  { avatar_description: nullable(string) },
);
