// Lists: GET/POST /api/v1/lists, GET/PUT/DELETE /api/v1/lists/:id, their members under
// /api/v1/lists/:id/accounts, and GET /api/v1/accounts/:id/lists (the viewer's lists holding an
// account). Another user's list answers 404. The list's timeline is in timelines.ts.

import type { Hono } from "hono";
import { z } from "zod";
import { REPLIES_POLICIES } from "../../../domain/list.ts";
import { serializeList } from "../../../serialization/mastodon/list.ts";
import { listsHolding } from "../../../services/lists/account-lists.ts";
import { addListMembers } from "../../../services/lists/add-members.ts";
import { createList } from "../../../services/lists/create-list.ts";
import { deleteList } from "../../../services/lists/delete-list.ts";
import { listMemberAccounts } from "../../../services/lists/list-members.ts";
import { ownList, ownLists } from "../../../services/lists/own-list.ts";
import { removeListMembers } from "../../../services/lists/remove-members.ts";
import { updateList } from "../../../services/lists/update-list.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { booleanParam, idParam, integerParam, listParam } from "../../schemas.ts";
import { UPDATE_METHODS } from "../../update-methods.ts";
import { renderAccounts } from "../account-json.ts";

const listSchema = z.object({
  title: z.string().optional(),
  replies_policy: z.enum(REPLIES_POLICIES).optional(),
  exclusive: booleanParam.optional(),
});

const membersSchema = z.object({
  account_ids: listParam(idParam).refine((ids) => ids.length > 0, "can't be blank"),
});

// Mastodon pages members 40 at a time (at most 80); limit=0 asks for every member at once.
const memberPageSchema = z.object({
  ...pageFields(40, 80),
  limit: integerParam
    .optional()
    .transform((n) => (n === undefined ? 40 : n === 0 ? 0 : Math.min(Math.max(n, 1), 80))),
});

const READ = { scopes: ["read:lists"], user: true };
const WRITE = { scopes: ["write:lists"], user: true };

export function listRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.get("/api/v1/lists", access(READ), async (c) => {
    const viewer = requireViewer(c);
    const lists = await ownLists(ctx, viewer.account.id);
    return c.json(lists.map(serializeList));
  });

  app.post("/api/v1/lists", access(WRITE), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, listSchema);
    const list = await createList(ctx, viewer.account.id, {
      title: params.title ?? "",
      repliesPolicy: params.replies_policy ?? "list",
      exclusive: params.exclusive ?? false,
    });
    return c.json(serializeList(list));
  });

  app.get("/api/v1/lists/:id{[0-9]+}", access(READ), async (c) => {
    const viewer = requireViewer(c);
    return c.json(serializeList(await ownList(ctx, viewer.account.id, c.req.param("id"))));
  });

  app.on(UPDATE_METHODS, "/api/v1/lists/:id{[0-9]+}", access(WRITE), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, listSchema);
    const list = await updateList(ctx, viewer.account.id, c.req.param("id"), {
      title: params.title,
      repliesPolicy: params.replies_policy,
      exclusive: params.exclusive,
    });
    return c.json(serializeList(list));
  });

  app.delete("/api/v1/lists/:id{[0-9]+}", access(WRITE), async (c) => {
    const viewer = requireViewer(c);
    await deleteList(ctx, viewer.account.id, c.req.param("id"));
    return c.json({});
  });

  app.get("/api/v1/lists/:id{[0-9]+}/accounts", access(READ), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, memberPageSchema);
    const page = await listMemberAccounts(
      ctx,
      viewer.account.id,
      c.req.param("id"),
      params.limit === 0 ? "all" : toIdPage(params),
    );
    // Every member in one answer has no further page to link to.
    if (params.limit !== 0) setLinkHeader(c, ctx.settings.publicUrl, page);
    return c.json(
      await renderAccounts(
        ctx,
        page.items.map((i) => i.account),
      ),
    );
  });

  app.post("/api/v1/lists/:id{[0-9]+}/accounts", access(WRITE), async (c) => {
    const viewer = requireViewer(c);
    const { account_ids } = await readValidParams(c, membersSchema);
    await addListMembers(ctx, viewer.account.id, c.req.param("id"), account_ids);
    return c.json({});
  });

  app.delete("/api/v1/lists/:id{[0-9]+}/accounts", access(WRITE), async (c) => {
    const viewer = requireViewer(c);
    const { account_ids } = await readValidParams(c, membersSchema);
    await removeListMembers(ctx, viewer.account.id, c.req.param("id"), account_ids);
    return c.json({});
  });

  app.get("/api/v1/accounts/:id{[0-9]+}/lists", access(READ), async (c) => {
    const viewer = requireViewer(c);
    const lists = await listsHolding(ctx, viewer.account.id, c.req.param("id"));
    return c.json(lists.map(serializeList));
  });
}
