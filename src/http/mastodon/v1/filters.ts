// Filters v1 (GET/POST /api/v1/filters, GET/PUT/DELETE /api/v1/filters/:id): the compatibility
// view over v2 filters, one V1::Filter per keyword (services/filters/v1-filters.ts).

import type { Hono } from "hono";
import { z } from "zod";
import { serializeV1Filter } from "../../../serialization/mastodon/filter.ts";
import { removeKeyword } from "../../../services/filters/filter-keywords.ts";
import {
  createV1Filter,
  getV1Filter,
  listV1Filters,
  updateV1Filter,
  type V1Filter,
  type V1FilterInput,
} from "../../../services/filters/v1-filters.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { readValidParams } from "../../params.ts";
import { booleanParam, listParam } from "../../schemas.ts";
import { UPDATE_METHODS } from "../../update-methods.ts";
import { expiresInParam } from "../filter-params.ts";

const schema = z.object({
  phrase: z.string().optional(),
  context: listParam(z.string()).optional(),
  irreversible: booleanParam.optional(),
  whole_word: booleanParam.optional(),
  expires_in: expiresInParam.optional(),
});

function input(params: z.output<typeof schema>): V1FilterInput {
  return {
    phrase: params.phrase,
    context: params.context,
    irreversible: params.irreversible,
    wholeWord: params.whole_word,
    expiresIn: params.expires_in,
  };
}

const json = ({ filter, keyword }: V1Filter) => serializeV1Filter(filter, keyword);

export function filterV1Routes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const read = access({ scopes: ["read:filters"], user: true });
  const write = access({ scopes: ["write:filters"], user: true });

  app.get("/api/v1/filters", read, async (c) => {
    const viewer = requireViewer(c);
    return c.json((await listV1Filters(ctx, viewer.account.id)).map(json));
  });

  app.post("/api/v1/filters", write, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, schema);
    return c.json(json(await createV1Filter(ctx, viewer.account.id, input(params))));
  });

  app.get("/api/v1/filters/:id", read, async (c) => {
    const viewer = requireViewer(c);
    return c.json(json(await getV1Filter(ctx, viewer.account.id, c.req.param("id"))));
  });

  app.on(UPDATE_METHODS, "/api/v1/filters/:id", write, async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, schema);
    return c.json(
      json(await updateV1Filter(ctx, viewer.account.id, c.req.param("id"), input(params))),
    );
  });

  app.delete("/api/v1/filters/:id", write, async (c) => {
    const viewer = requireViewer(c);
    await removeKeyword(ctx, viewer.account.id, c.req.param("id"));
    return c.json({});
  });
}
