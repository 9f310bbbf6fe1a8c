// Blocking and muting accounts, and the lists of blocked and muted accounts. Muted accounts
// carry `mute_expires_at` (Mastodon's MutedAccount).

import type { Hono } from "hono";
import { z } from "zod";
import { blockAccount } from "../../../services/graph/block.ts";
import { listBlocks } from "../../../services/graph/list-blocks.ts";
import { listMutes } from "../../../services/graph/list-mutes.ts";
import { muteAccount } from "../../../services/graph/mute.ts";
import { unblockAccount } from "../../../services/graph/unblock.ts";
import { unmuteAccount } from "../../../services/graph/unmute.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { booleanParam, integerParam } from "../../schemas.ts";
import { renderAccounts } from "../account-json.ts";
import { renderRelationship } from "../relationship-json.ts";

const muteSchema = z.object({
  notifications: booleanParam.optional(),
  // Seconds; 0, absent or JSON null: indefinite.
  duration: z
    .union([integerParam, z.null()])
    .optional()
    .transform((v) => v ?? 0),
});

const listSchema = z.object(pageFields(40, 80));

export function blockMuteRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  const simple = [
    ["block", ["write:blocks"], blockAccount],
    ["unblock", ["write:blocks"], unblockAccount],
    ["unmute", ["write:mutes"], unmuteAccount],
  ] as const;
  for (const [action, scopes, act] of simple) {
    app.post(
      `/api/v1/accounts/:id{[0-9]+}/${action}`,
      access({ scopes, user: true }),
      async (c) => {
        const viewer = requireViewer(c);
        const targetId = c.req.param("id");
        await act(ctx, viewer.account.id, targetId);
        return c.json(await renderRelationship(ctx, viewer.account.id, targetId));
      },
    );
  }

  app.post(
    "/api/v1/accounts/:id{[0-9]+}/mute",
    access({ scopes: ["write:mutes"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const params = await readValidParams(c, muteSchema);
      const targetId = c.req.param("id");
      await muteAccount(ctx, viewer.account.id, targetId, {
        notifications: params.notifications,
        durationSeconds: params.duration,
      });
      return c.json(await renderRelationship(ctx, viewer.account.id, targetId));
    },
  );

  app.get("/api/v1/blocks", access({ scopes: ["read:blocks"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, listSchema);
    const page = await listBlocks(ctx, viewer.account.id, toIdPage(params));
    setLinkHeader(c, ctx.settings.publicUrl, page);
    return c.json(
      await renderAccounts(
        ctx,
        page.items.map((i) => i.account),
      ),
    );
  });

  app.get("/api/v1/mutes", access({ scopes: ["read:mutes"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, listSchema);
    const page = await listMutes(ctx, viewer.account.id, toIdPage(params));
    setLinkHeader(c, ctx.settings.publicUrl, page);
    const accounts = await renderAccounts(
      ctx,
      page.items.map((i) => i.account),
    );
    return c.json(
      accounts.map((account, i) => ({
        ...account,
        mute_expires_at: page.items[i]?.edge.expiresAt ?? null,
      })),
    );
  });
}
