// Accounts: the signed-in user's own account (verify/update credentials; the Profile methods are
// in profile.ts), public profiles by id (one, or up to 40 with `id[]`) and by acct, account search, and
// sign-up. Literal paths are
// registered before `/api/v1/accounts/:id`, and `:id` only matches digits, so routes of other
// modules under /api/v1/accounts/… never collide with it.

import type { Hono } from "hono";
import { z } from "zod";
import { notFound, unauthorized, unprocessable } from "../../../domain/errors.ts";
import { serializeToken } from "../../../serialization/mastodon/token.ts";
import { shownAccount, shownAccounts } from "../../../services/accounts/listed-account.ts";
import { lookupAccount } from "../../../services/accounts/lookup-account.ts";
import { searchAccounts } from "../../../services/accounts/search-accounts.ts";
import { signUp } from "../../../services/accounts/sign-up.ts";
import { updateCredentials } from "../../../services/accounts/update-credentials.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { requireViewer } from "../../middleware/access.ts";
import { requestAddress } from "../../middleware/client-address.ts";
import { signUpThrottle } from "../../oauth/throttles.ts";
import { readValidParams } from "../../params.ts";
import { booleanParam, idParam, integerParam, limitParam, listParam } from "../../schemas.ts";
import { renderAccount, renderAccounts, renderCredentialAccount } from "../account-json.ts";
import { credentialsInput, updateCredentialsSchema } from "./profile-params.ts";

/** Mastodon answers at most 40 accounts per request (DEFAULT_ACCOUNTS_LIMIT). */
const MAX_ACCOUNTS = 40;

const manySchema = z.object({
  id: listParam(idParam)
    .optional()
    .default([])
    .transform((ids) => [...new Set(ids)]),
});

const lookupSchema = z.object({ acct: z.string().optional() });

const searchSchema = z.object({
  q: z.string().optional(),
  limit: limitParam(40, 80),
  offset: integerParam.optional().transform((n) => Math.max(n ?? 0, 0)),
  resolve: booleanParam.optional(),
  following: booleanParam.optional(),
});

const signUpSchema = z.object({
  username: z.string().optional().default(""),
  email: z.string().optional().default(""),
  password: z.string().optional().default(""),
  agreement: booleanParam.optional().default(false),
  locale: z.string().optional(),
  reason: z.string().optional(),
  invite_code: z.string().optional(),
  date_of_birth: z.string().optional(),
});

export function accountRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.get(
    "/api/v1/accounts/verify_credentials",
    access({ scopes: ["profile", "read:accounts"], user: true }),
    async (c) => {
      const { account, user } = requireViewer(c);
      return c.json(await renderCredentialAccount(ctx, account, user));
    },
  );

  app.patch(
    "/api/v1/accounts/update_credentials",
    access({ scopes: ["write:accounts"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const input = await credentialsInput(await readValidParams(c, updateCredentialsSchema));
      const { account, user } = await updateCredentials(ctx, viewer.account.id, input);
      return c.json(await renderCredentialAccount(ctx, account, user));
    },
  );

  app.get(
    "/api/v1/accounts/lookup",
    access({ optional: true, scopes: ["read:accounts"] }),
    async (c) => {
      const { acct } = await readValidParams(c, lookupSchema);
      const account = acct ? await lookupAccount(ctx, acct) : undefined;
      if (!account) throw notFound();
      return c.json(await renderAccount(ctx, account));
    },
  );

  app.get(
    "/api/v1/accounts/search",
    access({ scopes: ["read:accounts"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const params = await readValidParams(c, searchSchema);
      const accounts = await searchAccounts(ctx, {
        query: params.q ?? "",
        limit: params.limit,
        offset: params.offset,
        following: params.following ?? false,
        viewerId: viewer.account.id,
        resolve: params.resolve ?? false,
      });
      return c.json(await renderAccounts(ctx, accounts));
    },
  );

  app.post(
    "/api/v1/accounts",
    signUpThrottle(deps),
    access({ scopes: ["write:accounts"] }),
    async (c) => {
      // Any token with write:accounts; Mastodon documents an app token, and the new user's token
      // is issued to the same app.
      const viewer = c.get("viewer");
      if (!viewer) throw unauthorized();
      const params = await readValidParams(c, signUpSchema);
      const { issued } = await signUp(ctx, viewer.app, {
        username: params.username,
        email: params.email,
        password: params.password,
        agreement: params.agreement,
        locale: params.locale,
        reason: params.reason,
        inviteCode: params.invite_code,
        ip: requestAddress(c),
      });
      return c.json(serializeToken(issued.token, issued.secret, issued.refreshSecret));
    },
  );

  app.get("/api/v1/accounts", access({ optional: true, scopes: ["read:accounts"] }), async (c) => {
    const { id } = await readValidParams(c, manySchema);
    if (id.length > MAX_ACCOUNTS) {
      throw unprocessable(`Validation failed: at most ${MAX_ACCOUNTS} ids may be asked at once`);
    }
    // Ids naming no account are left out; the others keep the order they were asked in.
    // Unfinished sign-ups are as good as missing; suspended accounts show as suspended.
    const found = await ctx.storage.accounts.getMany(id);
    return c.json(
      await renderAccounts(
        ctx,
        await shownAccounts(
          ctx,
          id.flatMap((i) => found.get(i) ?? []),
        ),
      ),
    );
  });

  app.get(
    "/api/v1/accounts/:id{[0-9]+}",
    access({ optional: true, scopes: ["read:accounts"] }),
    async (c) => {
      // A suspended account answers with `suspended: true` and its profile emptied (Mastodon).
      const account = await shownAccount(ctx, await ctx.storage.accounts.get(c.req.param("id")));
      if (!account) throw notFound();
      return c.json(await renderAccount(ctx, account));
    },
  );
}
