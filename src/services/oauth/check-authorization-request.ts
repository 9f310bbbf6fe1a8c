// Checks the parameters of GET/POST /oauth/authorize, in Doorkeeper's order. A bad client or
// redirect URI is "fatal": we show an error page and never redirect, since the URI cannot be
// trusted. Later problems are sent back to the (registered) redirect URI as `error=…`, except
// for the out-of-band URI, where there is nowhere to send them.

import type { OAuthApp } from "../../domain/oauth.ts";
import { parseScopes, scopesWithin, unknownScopes } from "../../domain/scopes.ts";
import type { ServiceContext } from "../context.ts";
import { OAUTH_DESCRIPTIONS, type OAuthErrorCode } from "./errors.ts";
import { type CodeChallengeMethod, isPkceValue, parseChallengeMethod } from "./pkce.ts";
import { isRegisteredRedirectUri, OOB_URI } from "./redirect-uris.ts";

export interface AuthorizationParams {
  clientId?: string | undefined;
  redirectUri?: string | undefined;
  responseType?: string | undefined;
  scope?: string | undefined;
  state?: string | undefined;
  codeChallenge?: string | undefined;
  codeChallengeMethod?: string | undefined;
  responseMode?: string | undefined;
}

/** How the answer reaches the redirect URI: query string (default), fragment, or a POSTed form. */
export type ResponseMode = "query" | "fragment" | "form_post";
const RESPONSE_MODES: ReadonlySet<string> = new Set(["query", "fragment", "form_post"]);

export interface AuthorizationRequest {
  app: OAuthApp;
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: CodeChallengeMethod | null;
  responseMode: ResponseMode;
}

export type AuthorizationCheck =
  | { kind: "valid"; request: AuthorizationRequest }
  | { kind: "fatal"; error: OAuthErrorCode; description: string }
  | {
      kind: "redirect";
      redirectUri: string;
      responseMode: ResponseMode;
      state: string | null;
      error: OAuthErrorCode;
      description: string;
    };

export async function checkAuthorizationRequest(
  ctx: ServiceContext,
  params: AuthorizationParams,
): Promise<AuthorizationCheck> {
  const fatal = (error: OAuthErrorCode, description = OAUTH_DESCRIPTIONS[error]) =>
    ({ kind: "fatal", error, description }) as const;

  if (!params.clientId) return fatal("invalid_request", "Missing required parameter: client_id.");
  const app = await ctx.storage.apps.findByClientId(params.clientId);
  if (!app) return fatal("invalid_client");
  const redirectUri = params.redirectUri;
  if (!redirectUri || !isRegisteredRedirectUri(app.redirectUris, redirectUri)) {
    return fatal("invalid_redirect_uri");
  }

  const state = params.state ? params.state : null;
  const modeValid = !params.responseMode || RESPONSE_MODES.has(params.responseMode);
  const responseMode = (
    modeValid && params.responseMode ? params.responseMode : "query"
  ) as ResponseMode;
  const refuse = (error: OAuthErrorCode, description = OAUTH_DESCRIPTIONS[error]) =>
    redirectUri === OOB_URI
      ? fatal(error, description)
      : ({ kind: "redirect", redirectUri, responseMode, state, error, description } as const);

  if (!modeValid) return refuse("invalid_request", "The response mode is not supported.");

  if (!params.responseType)
    return refuse("invalid_request", "Missing required parameter: response_type.");
  if (params.responseType !== "code") return refuse("unsupported_response_type");

  const scopes = parseScopes(params.scope);
  if (unknownScopes(scopes).length > 0 || !scopesWithin(scopes, app.scopes)) {
    return refuse("invalid_scope");
  }

  let codeChallenge: string | null = null;
  let codeChallengeMethod: CodeChallengeMethod | null = null;
  if (params.codeChallenge) {
    codeChallengeMethod = parseChallengeMethod(params.codeChallengeMethod);
    if (!codeChallengeMethod) {
      return refuse("invalid_request", "The code_challenge_method must be S256.");
    }
    if (!isPkceValue(params.codeChallenge)) {
      return refuse("invalid_request", "The code challenge is malformed.");
    }
    codeChallenge = params.codeChallenge;
  } else if (params.codeChallengeMethod) {
    return refuse("invalid_request", "Missing required parameter: code_challenge.");
  }

  return {
    kind: "valid",
    request: { app, redirectUri, scopes, state, codeChallenge, codeChallengeMethod, responseMode },
  };
}
