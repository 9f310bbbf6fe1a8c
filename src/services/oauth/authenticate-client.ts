// Client authentication at the token and revocation endpoints: client_id plus client_secret,
// the secret compared against its stored hash in constant time.

import type { OAuthApp } from "../../domain/oauth.ts";
import { secretMatches } from "../auth/secrets.ts";
import type { ServiceContext } from "../context.ts";

export interface ClientCredentials {
  clientId?: string | undefined;
  clientSecret?: string | undefined;
}

/** The app when both values are given and match; null otherwise. */
export async function authenticateClient(
  ctx: ServiceContext,
  credentials: ClientCredentials,
): Promise<OAuthApp | null> {
  const { clientId, clientSecret } = credentials;
  if (!clientId || !clientSecret) return null;
  const app = await ctx.storage.apps.findByClientId(clientId);
  if (!app) return null;
  return secretMatches(clientSecret, app.clientSecretHash) ? app : null;
}
