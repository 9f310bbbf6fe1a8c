// OAuth 2 error answers as Doorkeeper (Mastodon's OAuth library) writes them: a machine-readable
// `error` code and a fixed English `error_description`. They are AppErrors, so the HTTP error
// mapper renders them like every other failure.

import { AppError, type ErrorStatus } from "../../domain/errors.ts";

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "invalid_scope"
  | "invalid_redirect_uri"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "access_denied";

export const OAUTH_DESCRIPTIONS: Record<OAuthErrorCode, string> = {
  invalid_request:
    "The request is missing a required parameter, includes an unsupported parameter value, or is otherwise malformed.",
  invalid_client:
    "Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.",
  invalid_grant:
    "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.",
  invalid_scope: "The requested scope is invalid, unknown, or malformed.",
  invalid_redirect_uri:
    "The requested redirect uri is malformed or doesn't match client redirect URI.",
  unauthorized_client: "The client is not authorized to perform this request using this method.",
  unsupported_grant_type:
    "The authorization grant type is not supported by the authorization server.",
  unsupported_response_type: "The authorization server does not support this response type.",
  access_denied: "The resource owner or authorization server denied the request.",
};

export function oauthError(
  status: ErrorStatus,
  code: OAuthErrorCode,
  description: string = OAUTH_DESCRIPTIONS[code],
): AppError {
  return new AppError(status, code, { description });
}

export const invalidGrant = () => oauthError(400, "invalid_grant");
export const invalidClient = () => oauthError(401, "invalid_client");
export const invalidScope = () => oauthError(400, "invalid_scope");
export const missingParameter = (name: string) =>
  oauthError(400, "invalid_request", `Missing required parameter: ${name}.`);
