/** Tag, from Mastodon's documentation (entities/Tag.md): a hashtag with its recent use. */
import { arrayOf, boolean, nullable, object, string, uri } from "../json-schema.ts";

/** Daily use of a hashtag; Mastodon sends the counts as strings. */
const TagHistory = object({ day: string, uses: string, accounts: string });

export const Tag = object(
  { id: string, name: string, url: uri, history: arrayOf(TagHistory) },
  { following: nullable(boolean), featuring: nullable(boolean) },
  "A hashtag",
);
