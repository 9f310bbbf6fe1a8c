// Move: the sender moved to another actor. Honoured only when the object is the sender itself
// and the target, freshly fetched from its own server (or our own record, for a move to a local
// account), lists the sender in `alsoKnownAs`; otherwise anyone could steer another account's
// followers anywhere. A move to an account that has itself moved on (a chain or a loop) is
// refused too. Refusals are logged: they are a peer's mistake or an attempt worth seeing.

import type { Move } from "@fedify/vocab";
import { getLogger } from "@logtape/logtape";
import { type Account, aliasesOf, movedToOf } from "../../domain/account.ts";
import { isDomainBlocked } from "../../services/domain-blocks/domain-blocks.ts";
import { moveRemoteAccount } from "../../services/remote/remote-move.ts";
import { ensureRemoteAccount } from "../remote-actors.ts";
import type { InboxCtx } from "./sender.ts";

const logger = getLogger(["wren", "federation", "inbox", "move"]);

async function targetOf(fctx: InboxCtx, target: URL): Promise<Account | undefined> {
  const ctx = fctx.data;
  if (target.origin === new URL(ctx.settings.publicUrl).origin) {
    return ctx.storage.accounts.findByUri(target.href);
  }
  if (await isDomainBlocked(ctx, target.host)) return undefined;
  return ensureRemoteAccount(fctx, target, { refresh: true });
}

export async function onMove(fctx: InboxCtx, move: Move, sender: Account): Promise<void> {
  const targetId = move.targetId;
  if (move.objectId?.href !== sender.uri || targetId === null) {
    logger.info("Refused a Move from {sender}: it does not move the sender itself", {
      sender: sender.uri,
    });
    return;
  }
  const target = targetId.href === sender.uri ? undefined : await targetOf(fctx, targetId);
  const refusal =
    target === undefined
      ? "the target cannot be found, is blocked or is the sender"
      : target.suspended
        ? "the target is suspended"
        : !aliasesOf(target).includes(sender.uri)
          ? "the target does not list the sender in alsoKnownAs"
          : movedToOf(target) !== null
            ? "the target has itself moved (a chain or a loop)"
            : null;
  if (refusal !== null || target === undefined) {
    logger.info("Refused the Move of {sender} to {target}: {refusal}", {
      sender: sender.uri,
      target: targetId.href,
      refusal,
    });
    return;
  }
  await moveRemoteAccount(fctx.data, sender, target);
}
