// The Preferences entity (GET /api/v1/preferences): the user's posting defaults, the same ones
// `source` of the CredentialAccount shows. Wren keeps no reading preferences, so those are
// Mastodon's defaults (sensitive media hidden, content warnings collapsed).

import type { Visibility } from "../../domain/account.ts";
import type { User } from "../../domain/user.ts";

export interface PreferencesJson {
  "posting:default:visibility": Visibility;
  "posting:default:sensitive": boolean;
  "posting:default:language": string | null;
  "posting:default:quote_policy": string;
  "reading:expand:media": "default" | "show_all" | "hide_all";
  "reading:expand:spoilers": boolean;
}

export function serializePreferences(user: User): PreferencesJson {
  return {
    "posting:default:visibility": user.defaultVisibility,
    "posting:default:sensitive": user.defaultSensitive,
    "posting:default:language": user.defaultLanguage,
    "posting:default:quote_policy": user.defaultQuotePolicy ?? "public",
    "reading:expand:media": "default",
    "reading:expand:spoilers": false,
  };
}
