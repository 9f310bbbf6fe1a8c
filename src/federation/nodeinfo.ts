// NodeInfo 2.1 (`/.well-known/nodeinfo` → `/nodeinfo/2.1`) with real usage figures. Wren does
// not record sign-ins, so an active user is one who posted within the period.

import type { Federation } from "@fedify/fedify";
import { MASTODON_API_COMPATIBILITY, WREN_VERSION } from "../domain/software.ts";
import type { ServiceContext } from "../services/context.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

async function activeUsers(ctx: ServiceContext): Promise<{ month: number; halfyear: number }> {
  const now = ctx.clock.now().getTime();
  const users = await ctx.storage.users.list();
  const newest = await Promise.all(
    users.map(
      async (u) => (await ctx.storage.statuses.listByAccount(u.accountId, { limit: 1 }))[0],
    ),
  );
  const within = (days: number) =>
    newest.filter((s) => s !== undefined && now - Date.parse(s.createdAt) <= days * DAY_MS).length;
  return { month: within(30), halfyear: within(180) };
}

export function registerNodeInfo(federation: Federation<ServiceContext>): void {
  federation.setNodeInfoDispatcher("/nodeinfo/2.1", async (fctx) => {
    const ctx = fctx.data;
    const [total, localPosts, active] = await Promise.all([
      ctx.storage.accounts.countLocal(),
      ctx.storage.statuses.countLocal(),
      activeUsers(ctx),
    ]);
    return {
      software: { name: "wren", version: WREN_VERSION },
      protocols: ["activitypub"],
      services: { inbound: [], outbound: [] },
      openRegistrations: ctx.settings.registrations !== "closed",
      usage: {
        users: { total, activeMonth: active.month, activeHalfyear: active.halfyear },
        localPosts,
        localComments: 0,
      },
      metadata: {
        nodeName: ctx.settings.title,
        nodeDescription: ctx.settings.description,
        // Client libraries (megalodon's detector, apps choosing an API) read the software name
        // and fall back to `upstream`: it says which client API Wren speaks.
        upstream: { name: "mastodon", version: MASTODON_API_COMPATIBILITY },
      },
    };
  });
}
