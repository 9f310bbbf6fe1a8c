/** Suggestion, from Mastodon's documentation (entities/Suggestion.md): an account to follow. */
import { arrayOf, entity, object, oneOf } from "../json-schema.ts";

export const Suggestion = object(
  {
    source: oneOf("staff", "past_interactions", "global"),
    sources: arrayOf(
      oneOf(
        "featured",
        "most_followed",
        "most_interactions",
        "similar_to_recently_followed",
        "friends_of_friends",
      ),
    ),
    account: entity("Account"),
  },
  {},
  "An account suggested to follow",
);
