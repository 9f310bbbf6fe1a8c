// A user's own blocks of whole servers (/api/v1/domain_blocks): the list is of domain names,
// paged by the blocks' ids through the Link header only, as Mastodon does. The operator's
// instance-wide blocks are the admin API's, not these.

import type { Hono } from "hono";
import { z } from "zod";
import {
  blockDomain,
  listDomainBlocks,
  unblockDomain,
} from "../../../services/graph/domain-block.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";

/** Mastodon lists 100 blocked domains at a time, at most 200. */
const listSchema = z.object(pageFields(100, 200));

const domainSchema = z.object({ domain: z.string().optional() });

export function domainBlockRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.get("/api/v1/domain_blocks", access({ scopes: ["read:blocks"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, listSchema);
    const blocks = await listDomainBlocks(ctx, viewer.account.id, toIdPage(params));
    setLinkHeader(c, ctx.settings.publicUrl, {
      newestId: blocks[0]?.id,
      oldestId: blocks.at(-1)?.id,
    });
    return c.json(blocks.map((b) => b.targetId));
  });

  app.post("/api/v1/domain_blocks", access({ scopes: ["write:blocks"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const { domain } = await readValidParams(c, domainSchema);
    await blockDomain(ctx, viewer.account.id, domain);
    return c.json({});
  });

  app.delete(
    "/api/v1/domain_blocks",
    access({ scopes: ["write:blocks"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      const { domain } = await readValidParams(c, domainSchema);
      await unblockDomain(ctx, viewer.account.id, domain);
      return c.json({});
    },
  );
}
