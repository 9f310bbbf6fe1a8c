// An Undo that names only the id of the activity it takes back, which its server does not
// serve (Mastodon's Follow and Like ids are not fetchable): whatever of the sender's carries
// that id ends — a boost, a follow or follow request, a favourite or a block. Only the
// sender's own records are searched, so nobody can undo someone else's act.

import type { Account } from "../../domain/account.ts";
import type { ServiceContext } from "../context.ts";
import { unblockAccount } from "../graph/unblock.ts";
import { unfollowAccount } from "../graph/unfollow.ts";
import { findInPages } from "../paging.ts";
import { undoRemoteFavourite, undoRemoteReblog } from "./remote-interactions.ts";

export async function undoRemoteByUri(
  ctx: ServiceContext,
  actor: Account,
  uri: string,
): Promise<boolean> {
  const { follows, followRequests, favourites, blocks, statuses } = ctx.storage;
  if (await undoRemoteReblog(ctx, actor, uri)) return true;
  const byUri = <E extends { id: string; uri: string | null }>(
    list: (page: Parameters<typeof follows.listFrom>[1]) => Promise<E[]>,
  ) => findInPages(list, (edge) => edge.uri === uri);
  const follow =
    (await byUri((page) => follows.listFrom(actor.id, page))) ??
    (await byUri((page) => followRequests.listFrom(actor.id, page)));
  if (follow) {
    await unfollowAccount(ctx, actor.id, follow.targetId);
    return true;
  }
  const favourite = await byUri((page) => favourites.listFrom(actor.id, page));
  const favourited = favourite ? await statuses.get(favourite.targetId) : undefined;
  if (favourited) return undoRemoteFavourite(ctx, actor, favourited);
  const block = await byUri((page) => blocks.listFrom(actor.id, page));
  if (block) {
    await unblockAccount(ctx, actor.id, block.targetId);
    return true;
  }
  return false;
}
