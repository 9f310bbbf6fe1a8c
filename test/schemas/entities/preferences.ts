/** Preferences, from Mastodon's documentation (entities/Preferences.md): a user's preferences. */
import { boolean, language, nullable, object, oneOf } from "../json-schema.ts";

export const Preferences = object(
  {
    "posting:default:visibility": oneOf("public", "unlisted", "private", "direct"),
    "posting:default:sensitive": boolean,
    "posting:default:language": nullable(language),
    "reading:expand:media": oneOf("default", "show_all", "hide_all"),
    "reading:expand:spoilers": boolean,
  },
  { "posting:default:quote_policy": oneOf("public", "followers", "nobody") },
  "The signed-in user's preferences",
);
