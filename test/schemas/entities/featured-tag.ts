/** FeaturedTag, from Mastodon's documentation (entities/FeaturedTag.md): a hashtag shown on a profile. */
import { date, nullable, object, string, uri } from "../json-schema.ts";

export const FeaturedTag = object(
  // Mastodon sends the count as a string.
  { id: string, name: string, url: uri, statuses_count: string },
  { last_status_at: nullable(date) },
  "A hashtag featured on a profile",
);
