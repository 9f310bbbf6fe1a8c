/** Application and CredentialApplication, from Mastodon's documentation (entities/Application.md). */
import { arrayOf, extend, integer, nullable, object, string, uri } from "../json-schema.ts";

export const Application = object(
  {
    id: string,
    name: string,
    scopes: arrayOf(string),
    vapid_key: string,
    redirect_uri: string,
    redirect_uris: arrayOf(uri),
  },
  { website: nullable(uri) },
  "A client application registered with the server",
);

/** POST /api/v1/apps: the application plus its client credentials. */
export const CredentialApplication = extend(
  Application,
  { client_id: string, client_secret: string },
  { client_secret_expires_at: nullable(integer) },
  "A newly registered application with its client credentials",
);
