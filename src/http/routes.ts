// Every route module of the HTTP layer, in registration order. Literal paths such as
// /api/v1/accounts/verify_credentials are registered by their module before `:id` routes.

import type { RouteModule } from "./app.ts";
import { defaultImageRoutes } from "./default-images.ts";
import { accountRoutes } from "./mastodon/v1/accounts.ts";
import { registerAppsRoutes } from "./mastodon/v1/apps.ts";
import { instanceV1Routes } from "./mastodon/v1/instance.ts";
import { instanceV2Routes } from "./mastodon/v2/instance.ts";
import { mediaFileRoutes } from "./media-files.ts";
import { registerAuthorizeRoutes } from "./oauth/authorize.ts";
import { registerOAuthMetadataRoutes } from "./oauth/metadata.ts";
import { registerTokenRoutes } from "./oauth/token.ts";
import { registerUserinfoRoutes } from "./oauth/userinfo.ts";

export const ROUTE_MODULES: RouteModule[] = [
  registerAppsRoutes,
  registerAuthorizeRoutes,
  registerTokenRoutes,
  registerOAuthMetadataRoutes,
  registerUserinfoRoutes,
  accountRoutes,
  instanceV1Routes,
  instanceV2Routes,
  mediaFileRoutes,
  defaultImageRoutes,
];
