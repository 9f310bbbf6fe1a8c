// Reading collections (Mastodon: GET /api/v1/collections/:id, GET /api/v1/accounts/:id/collections
// and …/in_collections). An owner who blocks the viewer hides their collections from them: one
// collection answers 403, the list is empty. Others see only an owner's discoverable
// collections; "featured in" is for the featured account alone.

import type { Account } from "../../domain/account.ts";
import type { Collection } from "../../domain/collection.ts";
import { forbidden } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { requireAccount } from "../graph/target-account.ts";
import { findCollection, NOT_ALLOWED } from "./own-collection.ts";

async function blocksViewer(ctx: ServiceContext, ownerId: string, viewerId: string | null) {
  if (viewerId === null || viewerId === ownerId) return false;
  return (await ctx.storage.blocks.get(ownerId, viewerId)) !== undefined;
}

export async function readCollection(
  ctx: ServiceContext,
  viewerId: string | null,
  id: string,
): Promise<{ collection: Collection; owner: Account }> {
  const collection = await findCollection(ctx, id);
  if (await blocksViewer(ctx, collection.accountId, viewerId)) throw forbidden(NOT_ALLOWED);
  return { collection, owner: await requireAccount(ctx, collection.accountId) };
}

export interface OffsetPage {
  offset: number;
  limit: number;
}

export async function accountCollections(
  ctx: ServiceContext,
  viewerId: string | null,
  accountId: string,
  page: OffsetPage,
): Promise<Collection[]> {
  const owner = await requireAccount(ctx, accountId);
  if (await blocksViewer(ctx, owner.id, viewerId)) return [];
  const all = await ctx.storage.collections.listByAccount(owner.id);
  const visible = owner.id === viewerId ? all : all.filter((c) => c.discoverable);
  return visible.slice(page.offset, page.offset + page.limit);
}

export async function collectionsFeaturing(
  ctx: ServiceContext,
  viewerId: string,
  accountId: string,
  page: OffsetPage,
): Promise<Collection[]> {
  const account = await requireAccount(ctx, accountId);
  if (account.id !== viewerId) throw forbidden(NOT_ALLOWED);
  return ctx.storage.collections.listFeaturing(account.id, page.offset, page.limit);
}
