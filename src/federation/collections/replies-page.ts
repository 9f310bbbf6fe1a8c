// Which replies a status's `replies` collection lists, and how it pages, as Mastodon does:
// only public and unlisted replies (whoever asks: the collection is the same for every reader)
// by accounts that are not suspended; first the author's own replies (a thread), then the
// others', each oldest first. Cursors: `first` and `self.<id>` page through the author's own
// replies (after that id), `others` and `others.<id>` through everyone else's.

import { compareIds } from "../../domain/ids.ts";
import type { Status } from "../../domain/status.ts";
import {
  FIRST_REPLIES_CURSOR,
  type RepliesPage,
} from "../../serialization/activitypub/note-collections.ts";
import type { ServiceContext } from "../../services/context.ts";
import { visibleToAnyone } from "../../views/visibility.ts";
import { PAGE_SIZE } from "./paging.ts";

type Phase = "self" | "others";

interface RepliesCursor {
  phase: Phase;
  /** Only replies with a greater id; null from the phase's start. */
  after: string | null;
}

const CURSOR = /^(self|others)(?:\.([0-9]{1,20}))?$/;

/** The cursor's meaning, or null for a cursor that is not one of ours. */
function parseCursor(cursor: string): RepliesCursor | null {
  if (cursor === FIRST_REPLIES_CURSOR) return { phase: "self", after: null };
  const match = CURSOR.exec(cursor);
  if (!match) return null;
  return { phase: match[1] as Phase, after: match[2] ?? null };
}

/** The listable replies, oldest first (the store lists them so). */
async function listableReplies(ctx: ServiceContext, parent: Status): Promise<Status[]> {
  const replies = (await ctx.storage.statuses.listReplies(parent.id)).filter(visibleToAnyone);
  const authors = await ctx.storage.accounts.getMany([...new Set(replies.map((r) => r.accountId))]);
  return replies.filter((reply) => {
    const author = authors.get(reply.accountId);
    return author !== undefined && !author.suspended && URL.canParse(reply.uri);
  });
}

/** One page of the replies' ids and the next page's cursor; null for a cursor not ours. */
export async function repliesPage(
  ctx: ServiceContext,
  parent: Status,
  cursor: string,
): Promise<RepliesPage | null> {
  const at = parseCursor(cursor);
  return at === null ? null : pageAt(ctx, parent, at);
}

/** The first page, embedded in the status's Note. */
export function firstRepliesPage(ctx: ServiceContext, parent: Status): Promise<RepliesPage> {
  return pageAt(ctx, parent, { phase: "self", after: null });
}

async function pageAt(
  ctx: ServiceContext,
  parent: Status,
  at: RepliesCursor,
): Promise<RepliesPage> {
  const replies = await listableReplies(ctx, parent);
  const isSelf = (reply: Status) => reply.accountId === parent.accountId;
  const inPhase = replies
    .filter((reply) => isSelf(reply) === (at.phase === "self"))
    .filter((reply) => at.after === null || compareIds(reply.id, at.after) > 0)
    .sort((a, b) => compareIds(a.id, b.id));
  const kept = inPhase.slice(0, PAGE_SIZE);
  const last = kept[kept.length - 1];
  let nextCursor: string | null = null;
  if (inPhase.length > PAGE_SIZE && last) nextCursor = `${at.phase}.${last.id}`;
  else if (at.phase === "self" && replies.some((reply) => !isSelf(reply))) nextCursor = "others";
  return { items: kept.map((reply) => new URL(reply.uri)), nextCursor };
}
