// Finds the newest live direct status of a thread, older than a given one, that an account wrote
// or was mentioned in: the status a conversation falls back to when its last one is deleted.
// Such a status is written by the account or by one of the entry's other participants, so each
// of their direct statuses is scanned newest first (stopping at the first match); the scan is
// bounded so an account with a huge direct-message history cannot make a deletion run away.
// Scanning by author, not by walking replies, still finds statuses below a deleted reply.

import { compareIds } from "../../domain/ids.ts";
import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { isDirectMessage } from "./participants.ts";

const PAGE = 200;
const SCAN_LIMIT = 4000;

async function newestOfAuthor(
  ctx: ServiceContext,
  authorId: string,
  ownerId: string,
  conversationId: string,
  olderThan: string,
): Promise<Status | undefined> {
  let maxId = olderThan;
  for (let scanned = 0; scanned < SCAN_LIMIT; scanned += PAGE) {
    const page = await ctx.storage.statuses.listByAccount(
      authorId,
      { limit: PAGE, maxId },
      { visibilities: ["direct"] },
    );
    const match = page.find(
      (s) =>
        !s.deleted &&
        isDirectMessage(s) &&
        s.conversationId === conversationId &&
        (s.accountId === ownerId || s.mentionIds.includes(ownerId)),
    );
    if (match) return match;
    const last = page.at(-1);
    if (!last || page.length < PAGE) return undefined;
    maxId = last.id;
  }
  return undefined;
}

export async function previousThreadStatusFor(
  ctx: ServiceContext,
  ownerId: string,
  participantIds: readonly string[],
  before: Status,
): Promise<Status | undefined> {
  let best: Status | undefined;
  for (const authorId of new Set([ownerId, ...participantIds])) {
    const found = await newestOfAuthor(ctx, authorId, ownerId, before.conversationId, before.id);
    if (found && (best === undefined || compareIds(found.id, best.id) > 0)) best = found;
  }
  return best;
}
