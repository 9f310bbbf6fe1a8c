// Cursor paging shared by the actor's collections. A collection answers its first page at
// `?cursor=first`; later pages at `?cursor=<id>`, the items strictly below that id (newest
// first), so a page stays stable while new items arrive on top. Anything else is not a page.

import type { Context } from "@fedify/fedify";
import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { IdPage } from "../../storage/ports.ts";
import { instanceActorIdentifier } from "../instance-actor.ts";

export const PAGE_SIZE = 20;
export const FIRST_CURSOR = "first";

const ID = /^[0-9]{1,20}$/;

/**
 * The window to read for a cursor: one item more than a page, to learn whether a next page
 * exists. Null for a cursor that is not one of ours.
 */
export function windowOf(cursor: string | null): IdPage | null {
  if (cursor === null || cursor === FIRST_CURSOR) return { limit: PAGE_SIZE + 1 };
  if (!ID.test(cursor)) return null;
  return { limit: PAGE_SIZE + 1, maxId: cursor };
}

/** The items of a page (at most PAGE_SIZE of what was read) and the next page's cursor. */
export function splitPage<T>(
  read: readonly T[],
  idOf: (item: T) => string,
): { kept: T[]; nextCursor: string | null } {
  const kept = read.slice(0, PAGE_SIZE);
  const last = kept[kept.length - 1];
  const more = read.length > PAGE_SIZE && last !== undefined;
  return { kept, nextCursor: more ? idOf(last) : null };
}

/**
 * Whose collection: a local account, the instance actor (whose collections are empty), or
 * nobody (404).
 */
export async function collectionOwner(
  ctx: ServiceContext,
  identifier: string,
): Promise<Account | "instance" | null> {
  if (identifier === instanceActorIdentifier(ctx.settings)) return "instance";
  return (await ctx.storage.accounts.findByUsername(identifier, null)) ?? null;
}

/**
 * The first page's cursor, or null for nobody's collection: Fedify then asks the dispatcher
 * for the whole collection, which answers null, and the request gets a 404.
 */
export async function firstCursorOf(
  fctx: Context<ServiceContext>,
  identifier: string,
): Promise<string | null> {
  return (await collectionOwner(fctx.data, identifier)) === null ? null : FIRST_CURSOR;
}
