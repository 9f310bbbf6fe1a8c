// The signed-in user's own profile (/api/v1/profile): reading and changing it as a Profile
// (Mastodon 4.6; the same changes as update_credentials but the posting defaults), and removing
// the avatar or header (Mastodon 4.2), which answers the CredentialAccount.

import type { Hono } from "hono";
import { serializeProfile } from "../../../serialization/mastodon/profile.ts";
import { deleteProfileImage } from "../../../services/accounts/delete-profile-image.ts";
import { updateCredentials } from "../../../services/accounts/update-credentials.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { requireViewer } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";
import { UPDATE_METHODS } from "../../update-methods.ts";
import { renderCredentialAccount, urlContext } from "../account-json.ts";
import { credentialsInput, updateCredentialsSchema } from "./profile-params.ts";

/** Posting defaults are not part of a Profile: they stay with update_credentials. */
const profileSchema = updateCredentialsSchema.omit({ source: true });

export function profileRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.get(
    "/api/v1/profile",
    access({ scopes: ["profile", "read:accounts"], user: true }),
    async (c) => {
      const { account } = requireViewer(c);
      return c.json(serializeProfile(account, urlContext(ctx)));
    },
  );

  app.on(
    UPDATE_METHODS,
    "/api/v1/profile",
    access({ scopes: ["write:accounts"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const input = await credentialsInput(await readValidParams(c, profileSchema));
      const { account } = await updateCredentials(ctx, viewer.account.id, input);
      return c.json(serializeProfile(account, urlContext(ctx)));
    },
  );

  for (const kind of ["avatar", "header"] as const) {
    app.delete(
      `/api/v1/profile/${kind}`,
      access({ scopes: ["write:accounts"], user: true }),
      async (c) => {
        const viewer = requireViewer(c);
        const account = await deleteProfileImage(ctx, viewer.account.id, kind);
        return c.json(await renderCredentialAccount(ctx, account, viewer.user));
      },
    );
  }
}
