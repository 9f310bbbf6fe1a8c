/** Poll, from Mastodon's documentation (entities/Poll.md). */
import {
  arrayOf,
  boolean,
  dateTime,
  entity,
  integer,
  nullable,
  object,
  string,
} from "../json-schema.ts";

export const Poll = object(
  {
    id: string,
    expired: boolean,
    multiple: boolean,
    votes_count: integer,
    options: arrayOf(object({ title: string }, { votes_count: nullable(integer) })),
    emojis: arrayOf(entity("CustomEmoji")),
  },
  {
    expires_at: nullable(dateTime),
    voters_count: nullable(integer),
    voted: nullable(boolean),
    own_votes: nullable(arrayOf(integer)),
  },
  "A poll attached to a status",
);
