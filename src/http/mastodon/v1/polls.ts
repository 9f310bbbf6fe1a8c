// Polls: GET /api/v1/polls/:id (as public as the poll's status: no token needed for a public
// one) and POST /api/v1/polls/:id/votes (`choices[]`, option indexes from 0).

import type { Hono } from "hono";
import { z } from "zod";
import { badRequest } from "../../../domain/errors.ts";
import { loadVisiblePoll } from "../../../services/polls/get-poll.ts";
import { votePoll } from "../../../services/polls/vote.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";
import { listParam } from "../../schemas.ts";
import { renderPoll } from "../poll-json.ts";

const POLL = "/api/v1/polls/:id{[0-9]+}";

const voteSchema = z.object({
  choices: z
    .union([listParam(z.union([z.string(), z.number()])), z.null()])
    .optional()
    .transform((v) => v ?? undefined),
});

export function pollRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.get(POLL, access({ scopes: ["read:statuses"], optional: true }), async (c) => {
    const viewerId = c.get("viewer")?.account?.id ?? null;
    const poll = await loadVisiblePoll(ctx, viewerId, c.req.param("id"));
    return c.json(await renderPoll(ctx, poll, viewerId));
  });

  app.post(`${POLL}/votes`, access({ scopes: ["write:statuses"], user: true }), async (c) => {
    const viewer = requireViewer(c);
    const { choices } = await readValidParams(c, voteSchema);
    // Rails' answer to a required parameter that is missing.
    if (choices === undefined) throw badRequest("param is missing or the value is empty: choices");
    const poll = await votePoll(ctx, {
      accountId: viewer.account.id,
      pollId: c.req.param("id"),
      choices,
    });
    return c.json(await renderPoll(ctx, poll, viewer.account.id));
  });
}
