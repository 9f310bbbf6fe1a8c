// Undo of a Follow, Like, EmojiReact, Announce or Block. Only the owner undoes: the inner
// activity must have the sender as its actor (an embedded copy is believed only when its id
// has the Undo's origin, otherwise it is fetched from its own). An Undo naming just an id that
// cannot be fetched is matched against the sender's own records (remote-undo.ts).

import { Activity, Announce, Block, EmojiReact, Follow, Like, type Undo } from "@fedify/vocab";
import type { Account } from "../../domain/account.ts";
import { undoRemoteBlock } from "../../services/remote/remote-block.ts";
import { undoRemoteFollow } from "../../services/remote/remote-follow.ts";
import {
  undoRemoteFavourite,
  undoRemoteReblog,
} from "../../services/remote/remote-interactions.ts";
import { undoRemoteByUri } from "../../services/remote/remote-undo.ts";
import { type InboxCtx, localAccountOf, localStatusOf, objectOf } from "./sender.ts";

export async function onUndo(fctx: InboxCtx, undo: Undo, sender: Account): Promise<void> {
  const ctx = fctx.data;
  const inner = await objectOf(fctx, undo);
  if (!inner) {
    if (undo.objectId) await undoRemoteByUri(ctx, sender, undo.objectId.href);
    return;
  }
  if (!(inner instanceof Activity) || inner.actorId?.href !== sender.uri) return;
  if (inner instanceof Follow) {
    const target = await localAccountOf(ctx, inner.objectId);
    if (target) await undoRemoteFollow(ctx, sender, target);
  } else if (inner instanceof Like || inner instanceof EmojiReact) {
    const status = await localStatusOf(ctx, inner.objectId);
    if (status) await undoRemoteFavourite(ctx, sender, status);
  } else if (inner instanceof Announce) {
    if (inner.id) await undoRemoteReblog(ctx, sender, inner.id.href);
  } else if (inner instanceof Block) {
    const target = await localAccountOf(ctx, inner.objectId);
    if (target) await undoRemoteBlock(ctx, sender, target);
  }
}
