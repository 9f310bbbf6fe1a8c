// Featured accounts (Mastodon's endorsements): feature and unfeature an account (`endorse` /
// `unendorse`, and the older names `pin` / `unpin` that clients before Mastodon 4.4 call), the
// viewer's own list, and any account's list as its profile shows it.

import type { Hono } from "hono";
import { z } from "zod";
import {
  endorseAccount,
  listEndorsements,
  unendorseAccount,
} from "../../../services/graph/endorse.ts";
import { requireAccount } from "../../../services/graph/target-account.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { renderAccounts } from "../account-json.ts";
import { renderRelationship } from "../relationship-json.ts";

/** Mastodon pages account lists 40 at a time, at most 80. */
const listSchema = z.object(pageFields(40, 80));

export function endorsementRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const publicUrl = ctx.settings.publicUrl;

  for (const [action, act] of [
    ["endorse", endorseAccount],
    ["pin", endorseAccount],
    ["unendorse", unendorseAccount],
    ["unpin", unendorseAccount],
  ] as const) {
    app.post(
      `/api/v1/accounts/:id{[0-9]+}/${action}`,
      access({ scopes: ["write:accounts"], user: true }),
      async (c) => {
        const viewer = requireViewer(c);
        const targetId = c.req.param("id");
        await act(ctx, viewer.account.id, targetId);
        return c.json(await renderRelationship(ctx, viewer.account.id, targetId));
      },
    );
  }

  app.get("/api/v1/endorsements", access({ scopes: ["read:accounts"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, listSchema);
    const page = await listEndorsements(ctx, viewer.account.id, toIdPage(params));
    setLinkHeader(c, publicUrl, page);
    return c.json(
      await renderAccounts(
        ctx,
        page.items.map((i) => i.account),
      ),
    );
  });

  app.get(
    "/api/v1/accounts/:id{[0-9]+}/endorsements",
    access({ optional: true, scopes: ["read:accounts"] }),
    async (c) => {
      const params = await readValidParams(c, listSchema);
      const account = await requireAccount(ctx, c.req.param("id"));
      // A suspended account features nobody (Mastodon answers an empty list).
      if (account.suspended) return c.json([]);
      const page = await listEndorsements(ctx, account.id, toIdPage(params));
      setLinkHeader(c, publicUrl, page);
      return c.json(
        await renderAccounts(
          ctx,
          page.items.map((i) => i.account),
        ),
      );
    },
  );
}
