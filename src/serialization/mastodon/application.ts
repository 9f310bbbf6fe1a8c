// Mastodon's Application entity (GET /api/v1/apps/verify_credentials, Status#application) and
// CredentialApplication (POST /api/v1/apps: the same plus the client credentials, shown once).

import type { OAuthApp } from "../../domain/oauth.ts";

export interface ApplicationJson {
  id: string;
  name: string;
  website: string | null;
  scopes: string[];
  /** Deprecated in Mastodon 4.3 but still sent: the URIs joined with newlines. */
  redirect_uri: string;
  redirect_uris: string[];
  /** Deprecated (the instance gives it too), still sent: the public VAPID key of Web Push. */
  vapid_key: string;
}

export interface CredentialApplicationJson extends ApplicationJson {
  client_id: string;
  client_secret: string;
  client_secret_expires_at: number;
}

export function serializeApplication(app: OAuthApp, vapidKey: string): ApplicationJson {
  return {
    id: app.id,
    name: app.name,
    website: app.website,
    scopes: [...app.scopes],
    redirect_uri: app.redirectUris.join("\n"),
    redirect_uris: [...app.redirectUris],
    vapid_key: vapidKey,
  };
}

/** `clientSecret` is the plain secret, which only exists right after registration. */
export function serializeCredentialApplication(
  app: OAuthApp,
  clientSecret: string,
  vapidKey: string,
): CredentialApplicationJson {
  return {
    ...serializeApplication(app, vapidKey),
    client_id: app.clientId,
    client_secret: clientSecret,
    // Client secrets do not expire.
    client_secret_expires_at: 0,
  };
}
