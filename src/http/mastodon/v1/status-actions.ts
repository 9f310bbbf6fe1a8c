// What a user does to a status: boost, favourite, bookmark, pin, mute its conversation (and
// undo each), plus who boosted and who favourited it. Every action answers the status as the
// actor now sees it; boosting answers the new boost, wrapping the original.

import type { Hono } from "hono";
import { z } from "zod";
import type { Status } from "../../../domain/status.ts";
import type { ServiceContext } from "../../../services/context.ts";
import { bookmarkStatus } from "../../../services/interactions/bookmark.ts";
import { favouriteStatus } from "../../../services/interactions/favourite.ts";
import { listFavouritedBy } from "../../../services/interactions/list-favourited-by.ts";
import { listRebloggedBy } from "../../../services/interactions/list-reblogged-by.ts";
import { muteConversation } from "../../../services/interactions/mute-conversation.ts";
import { pinStatus } from "../../../services/interactions/pin.ts";
import { reblogStatus } from "../../../services/interactions/reblog.ts";
import { unbookmarkStatus } from "../../../services/interactions/unbookmark.ts";
import { unfavouriteStatus } from "../../../services/interactions/unfavourite.ts";
import { unmuteConversation } from "../../../services/interactions/unmute-conversation.ts";
import { unpinStatus } from "../../../services/interactions/unpin.ts";
import { unreblogStatus } from "../../../services/interactions/unreblog.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { renderAccounts } from "../account-json.ts";
import { renderStatus } from "../status-json.ts";

const STATUS = "/api/v1/statuses/:id{[0-9]+}";

const reblogSchema = z.object({
  // Forms send "" for an unset choice; that means the default, not an error.
  visibility: z
    .union([z.enum(["public", "unlisted", "private"]), z.literal(""), z.null()])
    .optional()
    .transform((v) => v || undefined),
});

const accountPageSchema = z.object(pageFields(40, 80));

type Action = (ctx: ServiceContext, accountId: string, statusId: string) => Promise<Status>;

/** Plain actions: path suffix, the scope Mastodon requires, and the use case. */
const ACTIONS: readonly [string, string, Action][] = [
  ["unreblog", "write:statuses", unreblogStatus],
  ["favourite", "write:favourites", favouriteStatus],
  ["unfavourite", "write:favourites", unfavouriteStatus],
  ["bookmark", "write:bookmarks", bookmarkStatus],
  ["unbookmark", "write:bookmarks", unbookmarkStatus],
  ["pin", "write:accounts", pinStatus],
  ["unpin", "write:accounts", unpinStatus],
  ["mute", "write:mutes", muteConversation],
  ["unmute", "write:mutes", unmuteConversation],
];

export function statusActionRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.post(`${STATUS}/reblog`, access({ scopes: ["write:statuses"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const { visibility } = await readValidParams(c, reblogSchema);
    const reblog = await reblogStatus(ctx, {
      accountId: viewer.account.id,
      statusId: c.req.param("id"),
      visibility,
    });
    return c.json(await renderStatus(ctx, reblog, viewer.account.id));
  });

  for (const [suffix, scope, action] of ACTIONS) {
    app.post(`${STATUS}/${suffix}`, access({ scopes: [scope], user: true }), async (c) => {
      const viewer = requireViewer(c);
      const status = await action(ctx, viewer.account.id, c.req.param("id"));
      return c.json(await renderStatus(ctx, status, viewer.account.id));
    });
  }

  const lists = [
    ["reblogged_by", listRebloggedBy],
    ["favourited_by", listFavouritedBy],
  ] as const;
  for (const [suffix, list] of lists) {
    // Public for statuses anyone may see; a token, when sent, needs read:accounts.
    app.get(
      `${STATUS}/${suffix}`,
      access({ optional: true, scopes: ["read:accounts"] }),
      async (c) => {
        const params = await readValidParams(c, accountPageSchema);
        const viewerId = c.get("viewer")?.account?.id ?? null;
        const page = await list(ctx, viewerId, c.req.param("id"), toIdPage(params));
        setLinkHeader(c, ctx.settings.publicUrl, page);
        return c.json(await renderAccounts(ctx, page.accounts));
      },
    );
  }
}
