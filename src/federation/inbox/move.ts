// Move: the sender moved to another actor. Honoured only when the object is the sender itself
// and the target, freshly fetched from its own server, lists the sender in `alsoKnownAs`;
// otherwise anyone could steer another account's followers anywhere.

import type { Move } from "@fedify/vocab";
import type { Account } from "../../domain/account.ts";
import { isDomainBlocked } from "../../services/domain-blocks/domain-blocks.ts";
import { moveRemoteAccount } from "../../services/federation/remote-move.ts";
import { ensureRemoteAccount } from "../remote-actors.ts";
import type { InboxCtx } from "./sender.ts";

export async function onMove(fctx: InboxCtx, move: Move, sender: Account): Promise<void> {
  const ctx = fctx.data;
  const targetId = move.targetId;
  if (move.objectId?.href !== sender.uri || targetId === null) return;
  if (targetId.href === sender.uri || (await isDomainBlocked(ctx, targetId.host))) return;
  const target = await ensureRemoteAccount(fctx, targetId, { refresh: true });
  if (!target || target.suspended || !target.remote?.alsoKnownAs.includes(sender.uri)) return;
  await moveRemoteAccount(ctx, sender, target);
}
