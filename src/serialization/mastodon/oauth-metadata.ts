// RFC 8414 authorization server metadata (GET /.well-known/oauth-authorization-server), with the
// fields Mastodon 4.3+ publishes, including its non-standard app_registration_endpoint.

import { ALL_SCOPES } from "../../domain/scopes.ts";

export function serializeOAuthMetadata(publicUrl: string) {
  const url = (path: string) => new URL(path, publicUrl).toString();
  return {
    issuer: url("/"),
    service_documentation: "https://docs.joinmastodon.org/",
    authorization_endpoint: url("/oauth/authorize"),
    token_endpoint: url("/oauth/token"),
    app_registration_endpoint: url("/api/v1/apps"),
    revocation_endpoint: url("/oauth/revoke"),
    userinfo_endpoint: url("/oauth/userinfo"),
    scopes_supported: [...ALL_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query", "fragment", "form_post"],
    code_challenge_methods_supported: ["S256"],
    grant_types_supported: [
      "authorization_code",
      "password",
      "client_credentials",
      "refresh_token",
    ],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
  };
}
