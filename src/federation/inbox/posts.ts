// Create, Update and Delete of posts (Note, Question, Article, Page, Image, Video, Event) and
// Update of the sender's own actor. The object is taken under the origin rule (objectOf) and
// must be the sender's own; the conversion and storage are remote-objects.ts's. A Create is
// stored only when it concerns this instance (the sender has local followers, or it addresses,
// mentions or answers a local account), as Mastodon does, so a stranger cannot fill the disk.
// A Create of a Note that only names a poll option, in reply to a local poll, is a vote.

import {
  type Object as APObject,
  type Create,
  type Delete,
  isActor,
  Mention,
  Note,
  type Update,
} from "@fedify/vocab";
import type { Account } from "../../domain/account.ts";
import { EMBEDDED_ONLY, textOf } from "../../serialization/activitypub/from-common.ts";
import type { ServiceContext } from "../../services/context.ts";
import { deleteRemoteActor } from "../../services/remote/remote-delete-actor.ts";
import { receiveVote, undoRemoteReblog } from "../../services/remote/remote-interactions.ts";
import { ensureRemoteAccount } from "../remote-actors.ts";
import {
  deleteObject,
  ingestObject,
  lookAhead,
  type StatusAhead,
  updateObject,
} from "../remote-objects.ts";
import { onStampDelete } from "./quotes.ts";
import {
  attributedTo,
  type InboxCtx,
  isLocalUri,
  knownStatusOf,
  localStatusOf,
  objectOf,
} from "./sender.ts";

async function concernsUs(
  ctx: ServiceContext,
  sender: Account,
  create: Create,
  object: APObject,
): Promise<boolean> {
  const addressed = [create, object].flatMap((o) => [
    ...o.toIds,
    ...o.ccIds,
    ...o.btoIds,
    ...o.bccIds,
  ]);
  if (addressed.some((id) => isLocalUri(ctx, id))) return true;
  if (object.replyTargetId && (await answersSomeoneHere(ctx, object.replyTargetId))) return true;
  for await (const tag of object.getTags(EMBEDDED_ONLY)) {
    if (tag instanceof Mention && tag.href && isLocalUri(ctx, tag.href)) return true;
  }
  return (await ctx.storage.follows.countTo(sender.id)) > 0;
}

/** A reply to a local status, or to one whose author someone here follows. */
async function answersSomeoneHere(ctx: ServiceContext, parentId: URL): Promise<boolean> {
  if (isLocalUri(ctx, parentId)) return true;
  const parent = await knownStatusOf(ctx, parentId);
  return parent !== undefined && (await ctx.storage.follows.countTo(parent.accountId)) > 0;
}

/** A vote: a Note with a `name` and no content, answering a local poll. */
async function asVote(ctx: ServiceContext, object: APObject) {
  if (!(object instanceof Note) || textOf(object.content) !== "") return undefined;
  const option = textOf(object.name);
  if (option === "") return undefined;
  const poll = await localStatusOf(ctx, object.replyTargetId);
  return poll?.pollId ? { poll, option } : undefined;
}

/** The post's stored copy asked for before the once-guard (lookAhead, ADR 0066). */
export const createAhead = (fctx: InboxCtx, create: Create): StatusAhead | undefined =>
  lookAhead(fctx.data, create.objectId);

export async function onCreate(
  fctx: InboxCtx,
  create: Create,
  sender: Account,
  ahead?: StatusAhead,
): Promise<void> {
  const ctx = fctx.data;
  const object = await objectOf(fctx, create);
  if (!object || !attributedTo(object, sender)) return;
  const vote = await asVote(ctx, object);
  if (vote) {
    await receiveVote(ctx, sender, vote.poll, vote.option);
    return;
  }
  if (!(await concernsUs(ctx, sender, create, object))) return;
  await ingestObject(fctx, object, { actor: sender, ...(ahead ? { ahead } : {}) });
}

export async function onUpdate(fctx: InboxCtx, update: Update, sender: Account): Promise<void> {
  const object = await objectOf(fctx, update);
  if (!object) return;
  if (isActor(object)) {
    // Only one's own profile; the embedded document has the sender's origin (objectOf).
    if (object.id?.href === sender.uri) await ensureRemoteAccount(fctx, object, { refresh: true });
    return;
  }
  if (!attributedTo(object, sender)) return;
  await updateObject(fctx, object, sender);
}

export async function onDelete(fctx: InboxCtx, del: Delete, sender: Account): Promise<void> {
  const ctx = fctx.data;
  const id = del.objectId;
  if (id === null) return;
  if (id.href === sender.uri) {
    await deleteRemoteActor(ctx, sender);
    return;
  }
  // A quote approval (stamp) withdrawn by the quoted author.
  if (await onStampDelete(fctx, id, sender)) return;
  // Owner only: a status we hold, by the sender (a boost is deleted by its Announce id).
  const status = await ctx.storage.statuses.findByUri(id.href);
  if (!status || status.deleted || status.accountId !== sender.id) return;
  if (status.reblogOfId !== null) {
    await undoRemoteReblog(ctx, sender, id.href);
    return;
  }
  await deleteObject(fctx, id, sender);
}
