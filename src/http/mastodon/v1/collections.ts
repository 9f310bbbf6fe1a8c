// Collections (Mastodon 4.6): POST /api/v1/collections, GET/PATCH/DELETE /api/v1/collections/:id,
// their items under /api/v1/collections/:id/items, and an account's collections and the ones it
// is featured in under /api/v1/accounts/:id/. Reading needs no token; a token, when given,
// tailors the items to its user.

import type { Context, Hono } from "hono";
import { z } from "zod";
import type { Collection } from "../../../domain/collection.ts";
import { notFound, unprocessable } from "../../../domain/errors.ts";
import {
  type CollectionJson,
  serializeCollection,
  serializeCollectionItem,
} from "../../../serialization/mastodon/collection.ts";
import type { CollectionInput } from "../../../services/collections/collection-fields.ts";
import {
  addCollectionItem,
  removeCollectionItem,
  revokeCollectionItem,
} from "../../../services/collections/collection-items.ts";
import { createCollection } from "../../../services/collections/create-collection.ts";
import {
  accountCollections,
  collectionsFeaturing,
  readCollection,
} from "../../../services/collections/read-collections.ts";
import {
  deleteCollection,
  updateCollection,
} from "../../../services/collections/update-collection.ts";
import { loadCollectionViews } from "../../../views/collection-view.ts";
import type { HttpDeps, HttpEnv } from "../../env.ts";
import { type Access, requireViewer } from "../../middleware/access.ts";
import { setOffsetLinkHeader } from "../../pagination.ts";
import { readValidParams } from "../../params.ts";
import {
  anyIdParam,
  booleanParam,
  idParam,
  integerParam,
  limitParam,
  listParam,
} from "../../schemas.ts";
import { UPDATE_METHODS } from "../../update-methods.ts";
import { renderAccounts } from "../account-json.ts";

const nullableText = z.union([z.string(), z.null()]).optional();

const fieldsSchema = z.object({
  name: z.string().optional(),
  description: z.string().optional(),
  language: nullableText,
  tag_name: nullableText,
  sensitive: booleanParam.optional(),
  discoverable: booleanParam.optional(),
});

const createSchema = fieldsSchema.extend({
  account_ids: listParam(idParam).optional(),
});

const itemSchema = z.object({ account_id: anyIdParam.optional() });

/** Mastodon pages collections by offset, 40 at a time, at most 80. */
const pageSchema = z.object({
  offset: integerParam.optional().transform((n) => Math.max(n ?? 0, 0)),
  limit: limitParam(40, 80),
});

const READ = { scopes: ["read:collections"], optional: true };
const READ_USER = { scopes: ["read:collections"], user: true };
const WRITE = { scopes: ["write:collections"], user: true };

function toInput(params: z.output<typeof fieldsSchema>): CollectionInput {
  return {
    name: params.name,
    description: params.description,
    language: params.language,
    tagName: params.tag_name,
    sensitive: params.sensitive,
    discoverable: params.discoverable,
  };
}

export function collectionRoutes(app: Hono<HttpEnv>, deps: HttpDeps, access: Access): void {
  const { ctx } = deps;
  const publicUrl = ctx.settings.publicUrl;
  const viewerIdOf = (c: Context<HttpEnv>) => c.get("viewer")?.account?.id ?? null;

  async function render(
    collections: readonly Collection[],
    viewerId: string | null,
  ): Promise<CollectionJson[]> {
    const views = await loadCollectionViews(ctx, collections, viewerId);
    return views.map((view) => serializeCollection(view, publicUrl));
  }

  app.post("/api/v1/collections", access(WRITE), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, createSchema);
    const collection = await createCollection(
      ctx,
      viewer.account.id,
      toInput(params),
      params.account_ids ?? [],
    );
    const [json] = await render([collection], viewer.account.id);
    return c.json({ collection: json });
  });

  app.get("/api/v1/collections/:id{[0-9]+}", access(READ), async (c) => {
    const viewerId = viewerIdOf(c);
    const { collection, owner } = await readCollection(ctx, viewerId, c.req.param("id"));
    const [view] = await loadCollectionViews(ctx, [collection], viewerId);
    if (!view) throw notFound();
    const featured = view.items.flatMap((i) => view.accounts.get(i.accountId) ?? []);
    return c.json({
      collection: serializeCollection(view, publicUrl),
      accounts: await renderAccounts(ctx, [owner, ...featured]),
    });
  });

  app.on(UPDATE_METHODS, "/api/v1/collections/:id{[0-9]+}", access(WRITE), async (c) => {
    const viewer = requireViewer(c);
    const params = await readValidParams(c, fieldsSchema);
    const collection = await updateCollection(
      ctx,
      viewer.account.id,
      c.req.param("id"),
      toInput(params),
    );
    const [json] = await render([collection], viewer.account.id);
    return c.json({ collection: json });
  });

  app.delete("/api/v1/collections/:id{[0-9]+}", access(WRITE), async (c) => {
    const viewer = requireViewer(c);
    await deleteCollection(ctx, viewer.account.id, c.req.param("id"));
    return c.body(null, 200);
  });

  app.post("/api/v1/collections/:id{[0-9]+}/items", access(WRITE), async (c) => {
    const viewer = requireViewer(c);
    const { account_id } = await readValidParams(c, itemSchema);
    if (account_id === undefined || account_id.trim() === "") {
      throw unprocessable("`account_id` parameter is missing");
    }
    // An id that cannot name an account is not found, as Mastodon's Account.find answers.
    if (!idParam.safeParse(account_id).success) throw notFound();
    const item = await addCollectionItem(ctx, viewer.account.id, c.req.param("id"), account_id);
    return c.json({ collection_item: serializeCollectionItem(item) });
  });

  app.delete("/api/v1/collections/:id{[0-9]+}/items/:item{[0-9]+}", access(WRITE), async (c) => {
    const viewer = requireViewer(c);
    await removeCollectionItem(ctx, viewer.account.id, c.req.param("id"), c.req.param("item"));
    return c.body(null, 200);
  });

  app.post(
    "/api/v1/collections/:id{[0-9]+}/items/:item{[0-9]+}/revoke",
    access(WRITE),
    async (c) => {
      const viewer = requireViewer(c);
      await revokeCollectionItem(ctx, viewer.account.id, c.req.param("id"), c.req.param("item"));
      return c.body(null, 200);
    },
  );

  app.get("/api/v1/accounts/:id{[0-9]+}/collections", access(READ), async (c) => {
    const viewerId = viewerIdOf(c);
    const page = await readValidParams(c, pageSchema);
    const collections = await accountCollections(ctx, viewerId, c.req.param("id"), page);
    setOffsetLinkHeader(c, publicUrl, { ...page, count: collections.length });
    return c.json({ collections: await render(collections, viewerId) });
  });

  app.get("/api/v1/accounts/:id{[0-9]+}/in_collections", access(READ_USER), async (c) => {
    const viewer = requireViewer(c);
    const page = await readValidParams(c, pageSchema);
    const collections = await collectionsFeaturing(ctx, viewer.account.id, c.req.param("id"), page);
    setOffsetLinkHeader(c, publicUrl, { ...page, count: collections.length });
    return c.json({ collections: await render(collections, viewer.account.id) });
  });
}
