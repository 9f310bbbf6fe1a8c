// The collections a local post's Note names, each at its own id: `…/statuses/{id}/replies`
// (paged: `?cursor=first`, then `next`; see replies-page.ts), `…/likes` and `…/shares` (only
// `totalItems`, the favourites and boosts). They answer exactly when the Note does: a
// followers-only or direct post's collections only to a signed request of someone who may read
// it, 404 to everyone else; a deleted post's answer 410 (objects.ts, goneStatusResponse).

import type { Federation, RequestContext } from "@fedify/fedify";
import { Object as ApObject } from "@fedify/vocab";
import { FIRST_REPLIES_CURSOR } from "../../serialization/activitypub/note-collections.ts";
import type { ServiceContext } from "../../services/context.ts";
import type { StatusView } from "../../views/status-view.ts";
import { readablePost } from "../objects.ts";
import { repliesPage } from "./replies-page.ts";

export const REPLIES_PATH = "/users/{identifier}/statuses/{id}/replies";
export const LIKES_PATH = "/users/{identifier}/statuses/{id}/likes";
export const SHARES_PATH = "/users/{identifier}/statuses/{id}/shares";

type Values = Record<"identifier" | "id", string>;
type Fctx = RequestContext<ServiceContext>;

/**
 * The replies are listed by id, as Mastodon lists remote replies. Fedify's collection handler
 * takes URLs as items (it serializes them as ids) though its type names objects only.
 */
function idsAsItems(ids: readonly URL[]): ApObject[] {
  return ids as unknown as ApObject[];
}

/** A collection of counts only: no items, totalItems from the post's view. */
function registerCountCollection(
  federation: Federation<ServiceContext>,
  name: "likes" | "shares",
  path: typeof LIKES_PATH | typeof SHARES_PATH,
  countOf: (view: StatusView) => number,
): void {
  federation
    .setCollectionDispatcher(name, ApObject, path, async (fctx: Fctx, values: Values) =>
      (await readablePost(fctx, values)) ? { items: [] } : null,
    )
    .setCounter(async (fctx: Fctx, values: Values) => {
      const view = await readablePost(fctx, values);
      return view ? countOf(view) : null;
    });
}

export function registerStatusCollections(federation: Federation<ServiceContext>): void {
  federation
    .setCollectionDispatcher(
      "replies",
      ApObject,
      REPLIES_PATH,
      async (fctx: Fctx, values: Values, cursor: string | null) => {
        const view = await readablePost(fctx, values);
        // Fedify asks without a cursor only when there is no first page (no such post).
        if (!view || cursor === null) return null;
        const page = await repliesPage(fctx.data, view.status, cursor);
        return page && { items: idsAsItems(page.items), nextCursor: page.nextCursor };
      },
    )
    .setFirstCursor(async (fctx: Fctx, values: Values) =>
      (await readablePost(fctx, values)) ? FIRST_REPLIES_CURSOR : null,
    );
  registerCountCollection(federation, "likes", LIKES_PATH, (view) => view.favouritesCount);
  registerCountCollection(federation, "shares", SHARES_PATH, (view) => view.reblogsCount);
}
