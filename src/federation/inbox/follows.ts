// Follow, Accept and Reject: a remote actor follows a local account, or answers a local
// account's follow request. The Follow's id is kept (the Accept/Reject we send names it); an
// Accept/Reject is matched to our request by the Follow id it names, and only requests to the
// account that answers are looked at, so nobody can accept on someone else's behalf.

import { type Activity, Follow } from "@fedify/vocab";
import type { Account } from "../../domain/account.ts";
import { EMBEDDED_ONLY } from "../../serialization/activitypub/from-common.ts";
import {
  acceptRemoteFollow,
  receiveFollow,
  rejectRemoteFollow,
} from "../../services/remote/remote-follow.ts";
import { type InboxCtx, localAccountOf } from "./sender.ts";

export async function onFollow(fctx: InboxCtx, follow: Follow, sender: Account): Promise<void> {
  const target = await localAccountOf(fctx.data, follow.objectId);
  // Without an id there is nothing the Accept could name.
  if (!target || follow.id === null) return;
  await receiveFollow(fctx.data, sender, target, follow.id.href);
}

/**
 * Which of our Follows an Accept/Reject answers: its id, and the local follower named by an
 * embedded Follow. The embedded copy is read as given (never fetched: its id is ours): it only
 * helps find our own request among those to the sender.
 */
async function answeredFollow(
  fctx: InboxCtx,
  answer: Activity,
  sender: Account,
): Promise<{ uri: string | null; followerId: string | null }> {
  const uri = answer.objectId?.href ?? null;
  let inner: unknown = null;
  try {
    inner = await answer.getObject({ ...EMBEDDED_ONLY, crossOrigin: "trust" });
  } catch {
    inner = null;
  }
  if (!(inner instanceof Follow) || (inner.objectId && inner.objectId.href !== sender.uri)) {
    return { uri, followerId: null };
  }
  const follower = await localAccountOf(fctx.data, inner.actorId);
  return { uri, followerId: follower?.id ?? null };
}

export async function onAccept(fctx: InboxCtx, accept: Activity, sender: Account): Promise<void> {
  const { uri, followerId } = await answeredFollow(fctx, accept, sender);
  await acceptRemoteFollow(fctx.data, sender, uri, followerId);
}

export async function onReject(fctx: InboxCtx, reject: Activity, sender: Account): Promise<void> {
  const { uri, followerId } = await answeredFollow(fctx, reject, sender);
  await rejectRemoteFollow(fctx.data, sender, uri, followerId);
}
