// Filters v2: GET/POST /api/v2/filters, GET/PUT/DELETE /api/v2/filters/:id, a filter's keywords
// (/api/v2/filters/:filter_id/keywords, /api/v2/filters/keywords/:id) and statuses
// (/api/v2/filters/:filter_id/statuses, /api/v2/filters/statuses/:id). read:filters to read,
// write:filters to change; another user's filter, keyword or status entry is a 404. Rules in
// services/filters/.

import type { Hono } from "hono";
import { z } from "zod";
import {
  serializeFilter,
  serializeFilterKeyword,
  serializeFilterStatus,
} from "../../../serialization/mastodon/filter.ts";
import {
  addKeyword,
  removeKeyword,
  updateKeyword,
} from "../../../services/filters/filter-keywords.ts";
import { addFilterStatus, removeFilterStatus } from "../../../services/filters/filter-statuses.ts";
import {
  createFilter,
  deleteFilter,
  type FilterChanges,
  updateFilter,
} from "../../../services/filters/filters.ts";
import { ownFilter, ownKeyword, ownStatusEntry } from "../../../services/filters/own-filters.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";
import { anyIdParam, booleanParam, idParam, listParam } from "../../schemas.ts";
import { UPDATE_METHODS } from "../../update-methods.ts";
import { expiresInParam } from "../filter-params.ts";

const keywordAttributes = z.object({
  id: anyIdParam.optional(),
  keyword: z.string().optional(),
  whole_word: booleanParam.optional(),
  _destroy: booleanParam.optional(),
});

/** A JSON list, `keywords_attributes[][…]`, or Rails' indexed form `keywords_attributes[0][…]`. */
const keywordsAttributes = z.union([
  z.array(keywordAttributes),
  z.record(z.string(), keywordAttributes).transform((byIndex) => Object.values(byIndex)),
]);

const filterSchema = z.object({
  title: z.string().optional(),
  context: listParam(z.string()).optional(),
  filter_action: z.string().optional(),
  expires_in: expiresInParam.optional(),
  keywords_attributes: keywordsAttributes.optional(),
});

const keywordSchema = z.object({
  keyword: z.string().optional(),
  whole_word: booleanParam.optional(),
});

const statusSchema = z.object({ status_id: idParam });

function filterChanges(params: z.output<typeof filterSchema>): FilterChanges {
  return {
    title: params.title,
    context: params.context,
    action: params.filter_action,
    expiresIn: params.expires_in,
    keywords: params.keywords_attributes?.map((k) => ({
      id: k.id,
      keyword: k.keyword,
      wholeWord: k.whole_word,
      destroy: k._destroy,
    })),
  };
}

export function filterV2Routes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const read = access({ scopes: ["read:filters"], user: true });
  const write = access({ scopes: ["write:filters"], user: true });

  app.get("/api/v2/filters", read, async (c) => {
    const viewer = requireViewer(c);
    const filters = await ctx.storage.filters.listByAccount(viewer.account.id);
    return c.json(filters.map(serializeFilter));
  });

  app.post("/api/v2/filters", write, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, filterSchema);
    return c.json(
      serializeFilter(await createFilter(ctx, viewer.account.id, filterChanges(params))),
    );
  });

  // Keyword and status entries by their own id, before the `:id` routes of filters.
  app.get("/api/v2/filters/keywords/:id", read, async (c) => {
    const viewer = requireViewer(c);
    const { keyword } = await ownKeyword(ctx, viewer.account.id, c.req.param("id"));
    return c.json(serializeFilterKeyword(keyword));
  });

  app.on(UPDATE_METHODS, "/api/v2/filters/keywords/:id", write, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, keywordSchema);
    const keyword = await updateKeyword(ctx, viewer.account.id, c.req.param("id"), {
      keyword: params.keyword,
      wholeWord: params.whole_word,
    });
    return c.json(serializeFilterKeyword(keyword));
  });

  app.delete("/api/v2/filters/keywords/:id", write, async (c) => {
    const viewer = requireViewer(c);
    await removeKeyword(ctx, viewer.account.id, c.req.param("id"));
    return c.json({});
  });

  app.get("/api/v2/filters/statuses/:id", read, async (c) => {
    const viewer = requireViewer(c);
    const { entry } = await ownStatusEntry(ctx, viewer.account.id, c.req.param("id"));
    return c.json(serializeFilterStatus(entry));
  });

  app.delete("/api/v2/filters/statuses/:id", write, async (c) => {
    const viewer = requireViewer(c);
    await removeFilterStatus(ctx, viewer.account.id, c.req.param("id"));
    return c.json({});
  });

  app.get("/api/v2/filters/:id", read, async (c) => {
    const viewer = requireViewer(c);
    return c.json(serializeFilter(await ownFilter(ctx, viewer.account.id, c.req.param("id"))));
  });

  app.on(UPDATE_METHODS, "/api/v2/filters/:id", write, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, filterSchema);
    const filter = await updateFilter(
      ctx,
      viewer.account.id,
      c.req.param("id"),
      filterChanges(params),
    );
    return c.json(serializeFilter(filter));
  });

  app.delete("/api/v2/filters/:id", write, async (c) => {
    const viewer = requireViewer(c);
    await deleteFilter(ctx, viewer.account.id, c.req.param("id"));
    return c.json({});
  });

  app.get("/api/v2/filters/:filter_id/keywords", read, async (c) => {
    const viewer = requireViewer(c);
    const filter = await ownFilter(ctx, viewer.account.id, c.req.param("filter_id"));
    return c.json(filter.keywords.map(serializeFilterKeyword));
  });

  app.post("/api/v2/filters/:filter_id/keywords", write, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, keywordSchema);
    const keyword = await addKeyword(ctx, viewer.account.id, c.req.param("filter_id"), {
      keyword: params.keyword ?? "",
      wholeWord: params.whole_word,
    });
    return c.json(serializeFilterKeyword(keyword));
  });

  app.get("/api/v2/filters/:filter_id/statuses", read, async (c) => {
    const viewer = requireViewer(c);
    const filter = await ownFilter(ctx, viewer.account.id, c.req.param("filter_id"));
    return c.json(filter.statuses.map(serializeFilterStatus));
  });

  app.post("/api/v2/filters/:filter_id/statuses", write, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, statusSchema);
    const entry = await addFilterStatus(
      ctx,
      viewer.account.id,
      c.req.param("filter_id"),
      params.status_id,
    );
    return c.json(serializeFilterStatus(entry));
  });
}
