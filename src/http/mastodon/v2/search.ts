// GET /api/v2/search (Mastodon 4): accounts, statuses and hashtags. Anonymous requests are
// allowed but may neither resolve remote resources nor page with `offset` (401, as Mastodon).

import type { Hono } from "hono";
import { z } from "zod";
import { badRequest, unauthorized } from "../../../domain/errors.ts";
import { type SearchType, search } from "../../../services/search/search.ts";
import { storedTagNames } from "../../../views/tag-view.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import type { Access } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";
import { anyIdParam, booleanParam, integerParam } from "../../schemas.ts";
import { renderAccounts } from "../account-json.ts";
import { renderStatuses } from "../status-json.ts";
import { renderTags } from "../tag-json.ts";

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 40;
const TYPES: readonly string[] = ["accounts", "hashtags", "statuses"];

const searchSchema = z.object({
  q: z.string().optional(),
  type: z.string().optional(),
  resolve: booleanParam.optional(),
  following: booleanParam.optional(),
  account_id: anyIdParam.optional(),
  exclude_unreviewed: booleanParam.optional(),
  max_id: anyIdParam.optional(),
  min_id: anyIdParam.optional(),
  limit: integerParam.optional(),
  offset: integerParam.optional(),
});

export function searchV2Routes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;

  app.get("/api/v2/search", access({ optional: true, scopes: ["read:search"] }), async (c) => {
    const params = await readValidParams(c, searchSchema);
    if (params.q === undefined || params.q.trim() === "") {
      throw badRequest("param is missing or the value is empty: q");
    }
    const account = c.get("viewer")?.account ?? null;
    if (account === null) {
      if (params.offset !== undefined) {
        throw unauthorized("Search queries pagination is not supported without authentication");
      }
      if (params.resolve) {
        throw unauthorized(
          "Search queries that resolve remote resources are not supported without authentication",
        );
      }
    }
    if ((params.limit ?? 0) < 0 || (params.offset ?? 0) < 0) {
      throw badRequest("Pagination values for `offset` and `limit` must be positive");
    }
    // A type Mastodon does not know searches nothing (none of its kinds is asked for).
    const type = params.type === undefined || params.type === "" ? undefined : params.type;
    if (type !== undefined && !TYPES.includes(type)) {
      return c.json({ accounts: [], statuses: [], hashtags: [] });
    }
    const viewerId = account?.id ?? null;
    const results = await search(ctx, {
      query: params.q,
      type: type as SearchType | undefined,
      resolve: params.resolve ?? false,
      following: params.following ?? false,
      accountId: params.account_id,
      maxId: params.max_id,
      minId: params.min_id,
      limit: Math.min(params.limit ?? DEFAULT_LIMIT, MAX_LIMIT),
      offset: params.offset ?? 0,
      viewerId,
      excludeUnreviewed: params.exclude_unreviewed,
    });
    const [accounts, statuses, hashtags] = await Promise.all([
      renderAccounts(ctx, results.accounts),
      renderStatuses(ctx, results.statuses, viewerId),
      renderTags(ctx, viewerId, storedTagNames(results.hashtags)),
    ]);
    return c.json({ accounts, statuses, hashtags });
  });
}
