// POST /api/v1/apps: registers an OAuth client. The client secret is returned once and stored
// only as a hash; the client id is itself a random value, so ids cannot be guessed or listed.

import { unprocessable } from "../../domain/errors.ts";
import type { OAuthApp } from "../../domain/oauth.ts";
import { parseScopes, unknownScopes } from "../../domain/scopes.ts";
import { hashSecret, newSecret } from "../auth/secrets.ts";
import type { ServiceContext } from "../context.ts";
import { parseRedirectUris, redirectUriProblem } from "./redirect-uris.ts";

export interface RegisterAppInput {
  clientName?: string | undefined;
  redirectUris?: string | readonly string[] | undefined;
  /** Space-separated; absent or blank means `read`. */
  scopes?: string | undefined;
  website?: string | undefined;
}

const MAX_NAME_LENGTH = 60;
const MAX_WEBSITE_LENGTH = 2000;

function websiteProblem(website: string): string | null {
  if (website.length > MAX_WEBSITE_LENGTH) {
    return `Website is too long (maximum is ${MAX_WEBSITE_LENGTH} characters)`;
  }
  try {
    const url = new URL(website);
    if (url.protocol === "http:" || url.protocol === "https:") return null;
  } catch {
    // falls through to the message below
  }
  return "Website is invalid";
}

export async function registerApp(
  ctx: ServiceContext,
  input: RegisterAppInput,
): Promise<{ app: OAuthApp; clientSecret: string }> {
  const name = (input.clientName ?? "").trim();
  const redirectUris = parseRedirectUris(input.redirectUris);
  const scopes = parseScopes(input.scopes);
  const website = input.website?.trim() || null;

  // Rails reports every failed validation at once, joined with commas.
  const problems: string[] = [];
  if (name === "") problems.push("Application name can't be blank");
  else if (name.length > MAX_NAME_LENGTH) {
    problems.push(`Application name is too long (maximum is ${MAX_NAME_LENGTH} characters)`);
  }
  const uriProblem = redirectUriProblem(redirectUris);
  if (uriProblem) problems.push(`Redirect URI ${uriProblem}`);
  if (unknownScopes(scopes).length > 0)
    problems.push("Scopes doesn't match configured on the server.");
  if (website) {
    const problem = websiteProblem(website);
    if (problem) problems.push(problem);
  }
  if (problems.length > 0) throw unprocessable(`Validation failed: ${problems.join(", ")}`);

  const clientSecret = newSecret();
  const app: OAuthApp = {
    id: ctx.ids.next(),
    name,
    website,
    redirectUris,
    scopes,
    clientId: newSecret(),
    clientSecretHash: hashSecret(clientSecret),
    createdAt: ctx.clock.now().toISOString(),
  };
  await ctx.storage.apps.put(app);
  return { app, clientSecret };
}
