// The one unsigned-looking activity we act on: the Delete of an actor whose server has already
// removed it. Its key can no longer be fetched (the actor document answers 410 Gone), so the
// signature cannot be verified and Fedify would answer 401 forever. When the actor document
// itself, fetched from its own origin now, answers 410, the actor is gone whoever told us:
// its content here is removed as for a verified Delete. Anything else keeps the 401.

import type { RequestContext, UnverifiedActivityReason } from "@fedify/fedify";
import { type Activity, Delete } from "@fedify/vocab";
import { isLocal } from "../../domain/account.ts";
import type { ServiceContext } from "../../services/context.ts";
import { isDomainBlocked } from "../../services/domain-blocks/domain-blocks.ts";
import { deleteRemoteActor } from "../../services/remote/remote-delete-actor.ts";

async function answersGone(fctx: RequestContext<ServiceContext>, id: URL): Promise<boolean> {
  try {
    await fctx.documentLoader(id.href);
    return false;
  } catch (error) {
    const response = (error as { response?: Response }).response;
    return response?.status === 410;
  }
}

export async function onUnverifiedActivity(
  fctx: RequestContext<ServiceContext>,
  activity: Activity,
  reason: UnverifiedActivityReason,
): Promise<Response | undefined> {
  const actorId = activity.actorId;
  if (!(activity instanceof Delete) || actorId === null) return undefined;
  if (activity.objectId?.href !== actorId.href || reason.type !== "keyFetchError") return undefined;
  if (!("status" in reason.result) || reason.result.status !== 410) return undefined;
  const ctx = fctx.data;
  if (await isDomainBlocked(ctx, actorId.host)) return new Response(null, { status: 202 });
  const account = await ctx.storage.accounts.findByUri(actorId.href);
  // Nothing of an unknown actor is here; answering 202 stops its server's retries.
  if (!account || isLocal(account)) return new Response(null, { status: 202 });
  if (!(await answersGone(fctx, actorId))) return undefined;
  await deleteRemoteActor(ctx, account);
  return new Response(null, { status: 202 });
}
