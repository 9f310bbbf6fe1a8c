/** Relationship and FamiliarFollowers, from Mastodon's documentation (entities/Relationship.md, FamiliarFollowers.md). */
import {
  arrayOf,
  boolean,
  dateTime,
  entity,
  language,
  nullable,
  object,
  string,
} from "../json-schema.ts";

export const Relationship = object(
  {
    id: string,
    following: boolean,
    showing_reblogs: boolean,
    notifying: boolean,
    followed_by: boolean,
    blocking: boolean,
    blocked_by: boolean,
    muting: boolean,
    muting_notifications: boolean,
    requested: boolean,
    requested_by: boolean,
    domain_blocking: boolean,
    endorsed: boolean,
    note: string,
  },
  { languages: nullable(arrayOf(language)), muting_expires_at: nullable(dateTime) },
  "How the signed-in user relates to an account",
);

export const FamiliarFollowers = object(
  { id: string, accounts: arrayOf(entity("Account")) },
  {},
  "Accounts one follows that also follow the given account",
);
