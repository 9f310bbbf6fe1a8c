// OAuth records. Secrets (client secrets, tokens, refresh tokens, codes) are never stored: only
// their SHA-256 hashes, so a copy of the data directory does not hand out sign-ins.

export interface OAuthApp {
  id: string;
  name: string;
  website: string | null;
  redirectUris: string[];
  scopes: string[];
  clientId: string;
  clientSecretHash: string;
  createdAt: string;
}

export interface AccessToken {
  id: string;
  tokenHash: string;
  refreshTokenHash: string | null;
  appId: string;
  /** null for client_credentials tokens, which act for the app only. */
  accountId: string | null;
  scopes: string[];
  createdAt: string;
  revokedAt: string | null;
}

export interface AuthorizationCode {
  codeHash: string;
  appId: string;
  accountId: string;
  scopes: string[];
  redirectUri: string;
  codeChallenge: string | null;
  /** Only S256 is issued; a code stored with another method never verifies. */
  codeChallengeMethod: "S256" | null;
  expiresAt: string;
  createdAt: string;
}
