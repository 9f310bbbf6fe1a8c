// Follow suggestions: GET /api/v2/suggestions (Suggestion entities, with their sources), the
// deprecated GET /api/v1/suggestions (the same accounts alone) and DELETE
// /api/v1/suggestions/:account_id (dismiss), kept together as they are one feature.

import type { Hono } from "hono";
import { z } from "zod";
import {
  dismissSuggestion,
  followSuggestions,
  type SuggestionSource,
} from "../../../services/discovery/suggestions.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { requireViewer } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";
import { limitParam } from "../../schemas.ts";
import { renderAccounts } from "../account-json.ts";

const listSchema = z.object({ limit: limitParam(40, 80) });

/** The deprecated single `source` a Suggestion still carries, from its first source. */
const LEGACY_SOURCE: Record<SuggestionSource, "past_interactions" | "global"> = {
  friends_of_friends: "past_interactions",
  most_followed: "global",
};

export function suggestionRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const read = access({ scopes: ["read:accounts"], user: true });

  app.get("/api/v2/suggestions", read, async (c) => {
    const viewer = requireViewer(c);
    const { limit } = await readValidParams(c, listSchema);
    const suggestions = await followSuggestions(ctx, viewer.account.id, limit);
    const accounts = await renderAccounts(
      ctx,
      suggestions.map((s) => s.account),
    );
    return c.json(
      suggestions.map((s, i) => ({
        source: LEGACY_SOURCE[s.sources[0] ?? "most_followed"],
        sources: s.sources,
        account: accounts[i],
      })),
    );
  });

  app.get("/api/v1/suggestions", read, async (c) => {
    const viewer = requireViewer(c);
    const { limit } = await readValidParams(c, listSchema);
    const suggestions = await followSuggestions(ctx, viewer.account.id, limit);
    return c.json(
      await renderAccounts(
        ctx,
        suggestions.map((s) => s.account),
      ),
    );
  });

  // Mastodon documents `read` for this call; `write:accounts` is admitted too, as it is a write.
  app.delete(
    "/api/v1/suggestions/:account_id",
    access({ scopes: ["read:accounts", "write:accounts"], user: true }),
    async (c) => {
      const viewer = requireViewer(c);
      await dismissSuggestion(ctx, viewer.account.id, c.req.param("account_id"));
      return c.json({});
    },
  );
}
