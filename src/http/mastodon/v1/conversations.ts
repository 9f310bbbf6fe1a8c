// Direct-message conversations: GET /api/v1/conversations (paged by last status id),
// POST /api/v1/conversations/:id/read and DELETE /api/v1/conversations/:id (the viewer's entry).

import type { Hono } from "hono";
import { z } from "zod";
import { listConversations } from "../../../services/conversations/list-conversations.ts";
import { markConversationRead } from "../../../services/conversations/mark-read.ts";
import { removeConversation } from "../../../services/conversations/remove-conversation.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { pageFields, setLinkHeader, toIdPage } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import { renderConversation, renderConversations } from "../conversation-json.ts";

const pageSchema = z.object(pageFields(20, 40));

export function conversationRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const write = access({ scopes: ["write:conversations"], user: true });

  app.get("/api/v1/conversations", access({ scopes: ["read:statuses"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, pageSchema);
    const page = await listConversations(ctx, viewer.account.id, toIdPage(params));
    setLinkHeader(c, ctx.settings.publicUrl, page);
    return c.json(await renderConversations(ctx, page.conversations, viewer.account.id));
  });

  app.post("/api/v1/conversations/:id/read", write, async (c) => {
    const viewer = requireViewer(c);
    const entry = await markConversationRead(ctx, viewer.account.id, c.req.param("id"));
    return c.json(await renderConversation(ctx, entry, viewer.account.id));
  });

  app.delete("/api/v1/conversations/:id", write, async (c) => {
    const viewer = requireViewer(c);
    await removeConversation(ctx, viewer.account.id, c.req.param("id"));
    return c.json({});
  });
}
