// POST /oauth/revoke (RFC 7009, as Doorkeeper answers it): the client must authenticate; an
// unknown token is not an error (the client's goal, a dead token, is reached); a token issued
// to another client is refused. Access and refresh tokens are both accepted.

import { hashSecret } from "../auth/secrets.ts";
import type { ServiceContext } from "../context.ts";
import { unsubscribeFromPush } from "../push/subscriptions.ts";
import { authenticateClient, type ClientCredentials } from "./authenticate-client.ts";
import { oauthError } from "./errors.ts";

const notYours = () =>
  oauthError(403, "unauthorized_client", "You are not authorized to revoke this token");

export async function revokeToken(
  ctx: ServiceContext,
  input: ClientCredentials & { token?: string | undefined },
): Promise<void> {
  const app = await authenticateClient(ctx, input);
  if (!app) throw notYours();
  if (!input.token) return;
  const hash = hashSecret(input.token);
  const token =
    (await ctx.storage.tokens.findByTokenHash(hash)) ??
    (await ctx.storage.tokens.findByRefreshTokenHash(hash));
  if (!token) return;
  if (token.appId !== app.id) throw notYours();
  if (token.revokedAt === null) {
    await ctx.storage.tokens.put({ ...token, revokedAt: ctx.clock.now().toISOString() });
  }
  // Its Web Push subscription goes with it (also after a crash between the two writes).
  await unsubscribeFromPush(ctx, token.id);
}
