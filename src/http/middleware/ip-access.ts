// The admins' `no_access` IP blocks: every request from a blocked address (as clientAddressResolver
// worked it out, behind trusted proxies too) is refused with 403, the API, the web pages and the
// inbox alike, as Mastodon's Rack::Attack blocklist does. Expired blocks are ignored.

import type { MiddlewareHandler } from "hono";
import { forbidden } from "../../domain/errors.ts";
import { ipBlockSeverities, knownNoIpBlocks } from "../../services/address-blocks/ip-blocks.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { HttpEnv } from "../env.ts";
import { requestAddress } from "./client-address.ts";

export function ipAccess(ctx: ServiceContext): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    if (knownNoIpBlocks(ctx)) return next();
    const address = requestAddress(c);
    if (address !== "local" && (await ipBlockSeverities(ctx, address)).has("no_access")) {
      throw forbidden("Your address is blocked from this server");
    }
    return next();
  };
}
