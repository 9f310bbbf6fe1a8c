// Like, EmojiReact (and Misskey's Like with `_misskey_reaction`, which is a Like) and
// Announce. A reaction of any kind counts as a favourite, on local statuses only (the remote
// author's server keeps its own counts). A boost becomes a reblog of the sender's: of a local
// status, or of a remote one when someone here follows the booster (the original is then
// fetched from its own origin if we do not hold it yet).

import type { Activity, Announce } from "@fedify/vocab";
import type { Account } from "../../domain/account.ts";
import type { Status } from "../../domain/status.ts";
import { isoOf } from "../../serialization/activitypub/from-common.ts";
import { visibilityOf } from "../../serialization/activitypub/from-note.ts";
import { isDomainBlocked } from "../../services/domain-blocks/domain-blocks.ts";
import { receiveFavourite, receiveReblog } from "../../services/remote/remote-interactions.ts";
import { ingestObject } from "../remote-objects.ts";
import { type InboxCtx, knownStatusOf, localStatusOf, objectOf } from "./sender.ts";

/** Like, EmojiReact, Misskey reactions: a favourite of a local status. */
export async function onReaction(fctx: InboxCtx, like: Activity, sender: Account): Promise<void> {
  const status = await localStatusOf(fctx.data, like.objectId);
  if (!status) return;
  await receiveFavourite(fctx.data, sender, status, like.id?.href ?? null);
}

async function boosted(
  fctx: InboxCtx,
  announce: Announce,
  sender: Account,
): Promise<Status | undefined> {
  const ctx = fctx.data;
  const id = announce.objectId;
  if (id === null) return undefined;
  const known = await knownStatusOf(ctx, id);
  if (known?.local) return known;
  // A remote status matters only to those here who follow the booster.
  if ((await ctx.storage.follows.countTo(sender.id)) === 0) return undefined;
  if (known) return known;
  if (await isDomainBlocked(ctx, id.host)) return undefined;
  const object = await objectOf(fctx, announce);
  return object ? ingestObject(fctx, object) : undefined;
}

export async function onAnnounce(
  fctx: InboxCtx,
  announce: Announce,
  sender: Account,
): Promise<void> {
  if (announce.id === null) return;
  const original = await boosted(fctx, announce, sender);
  if (!original || original.reblogOfId !== null) return;
  await receiveReblog(fctx.data, sender, original, {
    uri: announce.id.href,
    // Read as a post's addressing is; a boost is never direct (the service narrows it).
    visibility: visibilityOf(announce, sender.remote?.followers ?? null),
    published: isoOf(announce.published),
  });
}
