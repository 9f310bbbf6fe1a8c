/** Search, from Mastodon's documentation (entities/Search.md): what GET /api/v2/search found. */
import { anyObject, arrayOf, entity, nullable, object } from "../json-schema.ts";

export const Search = object(
  {
    accounts: arrayOf(entity("Account")),
    statuses: arrayOf(entity("Status")),
    hashtags: arrayOf(entity("Tag")),
  },
  { collections: nullable(arrayOf(anyObject)) },
  "Results of a search",
);
