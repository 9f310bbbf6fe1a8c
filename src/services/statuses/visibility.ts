// Applies the visibility rule (domain/visibility.ts) to statuses for one viewer, gathering the
// facts it needs (follows, blocks) in one batch per call. Use cases that act on a status
// (favourite, reply, notify…) call this; readers outside services (the API's hydration, the web
// pages, ActivityPub) reach it through views/visibility.ts.

import { notFound } from "../../domain/errors.ts";
import type { Status } from "../../domain/status.ts";
import { ANONYMOUS, canSee, type ViewerFacts } from "../../domain/visibility.ts";
import type { ServiceContext } from "../context.ts";

async function factsFor(
  ctx: ServiceContext,
  viewerId: string | null,
  authorIds: readonly string[],
): Promise<(authorId: string) => ViewerFacts> {
  if (viewerId === null) {
    return () => ANONYMOUS;
  }
  const unique = [...new Set(authorIds)];
  const [following, blockedBy] = await ctx.storage.joined.edges(viewerId, [
    { kind: "follows", direction: "from", ids: unique },
    { kind: "blocks", direction: "to", ids: unique },
  ]);
  return (authorId) => ({
    viewerId,
    followsAuthor: following.has(authorId),
    blockedByAuthor: blockedBy.has(authorId),
  });
}

/** The statuses the viewer may see, in the given order. */
export async function visibleStatuses(
  ctx: ServiceContext,
  viewerId: string | null,
  statuses: readonly Status[],
): Promise<Status[]> {
  const facts = await factsFor(
    ctx,
    viewerId,
    statuses.map((s) => s.accountId),
  );
  return statuses.filter((s) => canSee(s, facts(s.accountId)));
}

/** Loads a status the viewer may see, or answers 404 (never revealing that it exists). */
export async function loadVisibleStatus(
  ctx: ServiceContext,
  viewerId: string | null,
  statusId: string,
): Promise<Status> {
  const status = await ctx.storage.statuses.get(statusId);
  if (!status) throw notFound();
  const [visible] = await visibleStatuses(ctx, viewerId, [status]);
  if (!visible) throw notFound();
  return visible;
}
