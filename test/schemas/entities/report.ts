/** Report, from Mastodon's documentation (entities/Report.md): a report filed by the signed-in user. */
import {
  arrayOf,
  boolean,
  dateTime,
  entity,
  nullable,
  object,
  oneOf,
  string,
} from "../json-schema.ts";

export const Report = object(
  {
    id: string,
    action_taken: boolean,
    category: oneOf("spam", "legal", "violation", "other"),
    comment: string,
    forwarded: boolean,
    created_at: dateTime,
    target_account: entity("Account"),
  },
  {
    action_taken_at: nullable(dateTime),
    status_ids: nullable(arrayOf(string)),
    rule_ids: nullable(arrayOf(string)),
    collection_ids: nullable(arrayOf(string)),
  },
  "A report of an account and some of its statuses to the moderators",
);
