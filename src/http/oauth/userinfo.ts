// GET/POST /oauth/userinfo (Mastodon 4.4): OpenID-style claims about the token's account, for
// clients that only need to know who signed in. Needs the `profile` scope, as in Mastodon.

import type { Context, Hono } from "hono";
import { serializeUserinfo } from "../../serialization/mastodon/userinfo.ts";
import type { RouteModule } from "../app.ts";
import type { HttpDeps, HttpEnv } from "../env.ts";
import { type Access, requireViewer } from "../middleware/access.ts";

export const registerUserinfoRoutes: RouteModule = (
  app: Hono<HttpEnv>,
  deps: HttpDeps,
  access: Access,
) => {
  const handler = (c: Context<HttpEnv>) => {
    const { account } = requireViewer(c);
    const avatar = account.avatar;
    const picture =
      avatar === null
        ? null
        : avatar.kind === "hosted"
          ? deps.ctx.files.url(avatar.key)
          : avatar.url;
    return c.json(serializeUserinfo(account, deps.ctx.settings.publicUrl, picture));
  };
  const guard = access({ scopes: ["profile"], user: true });
  app.get("/oauth/userinfo", guard, handler);
  app.post("/oauth/userinfo", guard, handler);
};
