// Mastodon's Token entity, the answer of POST /oauth/token (and of sign-up). `secret` and
// `refreshSecret` are the plain values, which exist only at issue time.

import type { AccessToken } from "../../domain/oauth.ts";

export interface TokenJson {
  access_token: string;
  token_type: "Bearer";
  scope: string;
  /** Unix seconds. */
  created_at: number;
  refresh_token?: string;
}

export function serializeToken(
  token: AccessToken,
  secret: string,
  refreshSecret: string | null = null,
): TokenJson {
  return {
    access_token: secret,
    token_type: "Bearer",
    scope: token.scopes.join(" "),
    created_at: Math.floor(Date.parse(token.createdAt) / 1000),
    ...(refreshSecret === null ? {} : { refresh_token: refreshSecret }),
  };
}
