// A status's thread (GET /api/v1/statuses/:id/context): the ancestors from the root down, and
// the descendants depth-first with siblings oldest first (Mastodon's order), each filtered for
// the viewer: visibility, and nothing from accounts the viewer blocks or mutes. Both walks are
// bounded like Mastodon's (4096), so a huge or cyclic thread cannot run away.

import type { Status } from "../../domain/status.ts";
import type { ServiceContext } from "../context.ts";
import { domainBlockedAccounts } from "../graph/blocked-domains.ts";
import { mutedAccountIds } from "../graph/muted-accounts.ts";
import { loadVisibleStatus, visibleStatuses } from "./visibility.ts";

export const CONTEXT_LIMIT = 4096;

export interface StatusContext {
  ancestors: Status[];
  descendants: Status[];
}

async function ancestorsOf(ctx: ServiceContext, status: Status): Promise<Status[]> {
  const chain: Status[] = [];
  const seen = new Set([status.id]);
  let parentId = status.inReplyToId;
  while (parentId !== null && chain.length < CONTEXT_LIMIT && !seen.has(parentId)) {
    seen.add(parentId);
    const parent = await ctx.storage.statuses.get(parentId);
    if (!parent || parent.deleted) break;
    chain.push(parent);
    parentId = parent.inReplyToId;
  }
  return chain.reverse();
}

async function descendantsOf(ctx: ServiceContext, status: Status): Promise<Status[]> {
  const out: Status[] = [];
  const seen = new Set([status.id]);
  // An explicit stack keeps the depth-first order without recursion limits.
  const stack: Status[] = [...(await ctx.storage.statuses.listReplies(status.id))].reverse();
  while (stack.length > 0 && out.length < CONTEXT_LIMIT) {
    const next = stack.pop() as Status;
    if (seen.has(next.id)) continue;
    seen.add(next.id);
    out.push(next);
    const replies = await ctx.storage.statuses.listReplies(next.id);
    for (let i = replies.length - 1; i >= 0; i--) stack.push(replies[i] as Status);
  }
  return out;
}

async function forViewer(
  ctx: ServiceContext,
  viewerId: string | null,
  statuses: readonly Status[],
): Promise<Status[]> {
  const visible = await visibleStatuses(ctx, viewerId, statuses);
  if (viewerId === null) return visible;
  const [blocked, muted, onBlockedDomains] = await Promise.all([
    ctx.storage.blocks.allTargetsFrom(viewerId),
    mutedAccountIds(ctx, viewerId),
    domainBlockedAccounts(
      ctx,
      viewerId,
      visible.map((s) => s.accountId),
    ),
  ]);
  const hidden = new Set([...blocked, ...muted, ...onBlockedDomains]);
  return visible.filter((s) => !hidden.has(s.accountId));
}

export async function statusContext(
  ctx: ServiceContext,
  viewerId: string | null,
  statusId: string,
): Promise<StatusContext> {
  const status = await loadVisibleStatus(ctx, viewerId, statusId);
  const [ancestors, descendants] = await Promise.all([
    ancestorsOf(ctx, status),
    descendantsOf(ctx, status),
  ]);
  const [a, d] = await Promise.all([
    forViewer(ctx, viewerId, ancestors),
    forViewer(ctx, viewerId, descendants),
  ]);
  return { ancestors: a, descendants: d };
}
