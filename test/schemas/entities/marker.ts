/** Marker, from Mastodon's documentation (entities/Marker.md): a saved reading position. */
import { dateTime, integer, object, string } from "../json-schema.ts";

export const Marker = object(
  { last_read_id: string, version: integer, updated_at: dateTime },
  {},
  "The last read position in a timeline",
);
