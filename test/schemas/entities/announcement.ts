/** Announcement and Reaction, from Mastodon's documentation (entities/Announcement.md, Reaction.md). */
import {
  arrayOf,
  boolean,
  dateTime,
  entity,
  integer,
  nullable,
  object,
  string,
  uri,
} from "../json-schema.ts";

export const Reaction = object(
  { name: string, count: integer },
  { me: nullable(boolean), url: nullable(uri), static_url: nullable(uri) },
  "An emoji reaction to an announcement",
);

export const Announcement = object(
  {
    id: string,
    content: string,
    all_day: boolean,
    published_at: dateTime,
    updated_at: dateTime,
    mentions: arrayOf(object({ id: string, username: string, url: uri, acct: string })),
    statuses: arrayOf(object({ id: string, url: uri })),
    tags: arrayOf(entity("StatusTag")),
    emojis: arrayOf(entity("CustomEmoji")),
    reactions: arrayOf(entity("Reaction")),
  },
  { starts_at: nullable(dateTime), ends_at: nullable(dateTime), read: nullable(boolean) },
  "An announcement set by the administrators",
);
