/** Token, from Mastodon's documentation (entities/Token.md): an OAuth access token. */
import { integer, object, string } from "../json-schema.ts";

export const Token = object(
  { access_token: string, token_type: string, scope: string, created_at: integer },
  { refresh_token: string, expires_in: integer },
  "An OAuth access token",
);
