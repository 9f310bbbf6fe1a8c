// A user's private note about another account (Mastodon's AccountNote): only its author ever
// sees it, in the Relationship's `note`. A blank comment removes the note.

import { unprocessable } from "../../domain/errors.ts";
import type { ServiceContext } from "../context.ts";
import { requireAccount } from "./target-account.ts";

/** Mastodon's limit on a note's length, in characters. */
export const COMMENT_MAX_LENGTH = 2000;

export async function setAccountNote(
  ctx: ServiceContext,
  viewerId: string,
  targetId: string,
  comment: string,
): Promise<void> {
  const target = await requireAccount(ctx, targetId);
  const store = ctx.storage.accountNotes;
  if (comment.trim() === "") {
    await store.delete(viewerId, target.id);
    return;
  }
  if ([...comment].length > COMMENT_MAX_LENGTH) {
    throw unprocessable(
      `Validation failed: Comment is too long (maximum is ${COMMENT_MAX_LENGTH} characters)`,
    );
  }
  const existing = await store.get(viewerId, target.id);
  if (existing?.comment === comment) return;
  await store.put({
    id: existing?.id ?? ctx.ids.next(),
    accountId: viewerId,
    targetId: target.id,
    createdAt: existing?.createdAt ?? ctx.clock.now().toISOString(),
    comment,
  });
}
