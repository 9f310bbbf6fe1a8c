// Limits on deliveries to the shared and personal inboxes: per client address, counting every
// POST, and per sending server, counting only deliveries that were accepted. The sender is the
// host of the signature's key id, which is known before Fedify verifies it; counting only
// accepted deliveries means a forger who names another server's key spends nothing of that
// server's budget (its own unverified requests still count against its address).

import type { Context, MiddlewareHandler } from "hono";
import type { ServiceContext } from "../../services/context.ts";
import type { HttpEnv, RateLimitSetting } from "../env.ts";
import { byAddress, type RateLimiter, rateLimit } from "./rate-limit.ts";

const INBOX_PATH = /^\/(?:users\/[^/]+\/)?inbox\/?$/;

/** The host of the key a delivery says it is signed with (draft-cavage or RFC 9421). */
export function signingHost(c: Context<HttpEnv>): string | null {
  const signature = c.req.header("signature-input") ?? c.req.header("signature") ?? "";
  const keyId = /keyId\s*=\s*"([^"]*)"/i.exec(signature)?.[1];
  if (!keyId) return null;
  try {
    return new URL(keyId).host.toLowerCase();
  } catch {
    return null;
  }
}

export interface InboxLimitSettings {
  perAddress: RateLimitSetting;
  perSender: RateLimitSetting;
  maxTrackedKeys: number;
}

export function inboxLimits(
  settings: InboxLimitSettings,
  ctx: ServiceContext,
): { middleware: MiddlewareHandler<HttpEnv>; limiters: RateLimiter[] } {
  const perAddress = rateLimit(
    {
      name: "inbox-address",
      ...settings.perAddress,
      maxKeys: settings.maxTrackedKeys,
      key: byAddress,
    },
    ctx,
  );
  const perSender = rateLimit(
    {
      name: "inbox-sender",
      ...settings.perSender,
      maxKeys: settings.maxTrackedKeys,
      countSuccessOnly: true,
      key: (c) => {
        const host = signingHost(c);
        return host === null ? null : `sender:${host}`;
      },
    },
    ctx,
  );
  const middleware: MiddlewareHandler<HttpEnv> = (c, next) => {
    if (c.req.method !== "POST" || !INBOX_PATH.test(c.req.path)) return next();
    return perAddress(c, async () => {
      await perSender(c, next);
    });
  };
  return { middleware, limiters: [perAddress, perSender] };
}
