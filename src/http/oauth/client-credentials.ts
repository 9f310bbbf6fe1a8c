// Reads OAuth parameters for the token and revocation endpoints: JSON, form or multipart bodies
// (through readParams), with client credentials also taken from an HTTP Basic header
// (client_secret_basic). Unreadable input is an OAuth invalid_request, never a 500.

import type { Context } from "hono";
import { AppError } from "../../domain/errors.ts";
import type { ClientCredentials } from "../../services/oauth/authenticate-client.ts";
import { oauthError } from "../../services/oauth/errors.ts";
import type { HttpEnv } from "../env.ts";
import { type Params, readParams } from "../params.ts";

export async function readOAuthParams(c: Context<HttpEnv>): Promise<Params> {
  try {
    return await readParams(c);
  } catch (err) {
    if (err instanceof AppError && err.status === 400) throw oauthError(400, "invalid_request");
    throw err;
  }
}

/** A string parameter; anything else (numbers, lists, files) is a malformed request. */
export function stringParam(params: Params, key: string): string | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    throw oauthError(400, "invalid_request", `The parameter ${key} must be a string.`);
  }
  return value;
}

function decodeComponent(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll("+", " "));
  } catch {
    return value;
  }
}

/** Basic credentials win over body ones, as Doorkeeper reads them. */
export function clientCredentials(c: Context<HttpEnv>, params: Params): ClientCredentials {
  const header = c.req.header("authorization");
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (match) {
    const decoded = Buffer.from(match[1] as string, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) {
      // RFC 6749 §2.3.1: both parts are form-encoded before being joined.
      return {
        clientId: decodeComponent(decoded.slice(0, colon)),
        clientSecret: decodeComponent(decoded.slice(colon + 1)),
      };
    }
  }
  return {
    clientId: stringParam(params, "client_id"),
    clientSecret: stringParam(params, "client_secret"),
  };
}
