// What a user's block of a server does (Mastodon's AfterBlockDomainFromAccountService): the
// user's notifications from that server are deleted (so unread counts drop too), the user stops
// following that server's accounts (an Undo Follow goes out, pending requests are withdrawn), and
// that server's followers and pending requests are removed (a Reject goes out). Runs as the listener of `account.domain_blocked`, so
// a failure is retried; every step is idempotent and publishes the same events as the one-by-one
// actions, so counters, home feeds and federation follow.

import type { DomainEvent } from "../../domain/events.ts";
import type { Follow } from "../../domain/relations.ts";
import type { EdgeStore } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { allEdges } from "../domain-blocks/sever-domain.ts";
import type { EventListener } from "../events.ts";
import { publishIf } from "../events.ts";
import { onBlockedDomain } from "./blocked-domains.ts";

async function onDomain(
  ctx: ServiceContext,
  edges: Follow[],
  otherEnd: (edge: Follow) => string,
  domain: string,
): Promise<Follow[]> {
  if (edges.length === 0) return [];
  const accounts = await ctx.storage.accounts.getMany(edges.map(otherEnd));
  const domains = new Set([domain]);
  return edges.filter((edge) => {
    const other = accounts.get(otherEnd(edge));
    return other !== undefined && onBlockedDomain(other, domains);
  });
}

const NOTIFICATION_PAGE = 200;

/** Deletes the user's notifications caused by accounts of `domain`, walking them newest first. */
async function clearNotifications(
  ctx: ServiceContext,
  accountId: string,
  domain: string,
): Promise<void> {
  const { notifications, accounts } = ctx.storage;
  const domains = new Set([domain]);
  let maxId: string | undefined;
  for (;;) {
    const page = await notifications.listFor(accountId, { limit: NOTIFICATION_PAGE, maxId });
    const senders = await accounts.getMany(page.map((n) => n.fromAccountId));
    for (const n of page) {
      const sender = senders.get(n.fromAccountId);
      if (sender && onBlockedDomain(sender, domains)) await notifications.delete(n.id);
    }
    if (page.length < NOTIFICATION_PAGE) return;
    maxId = page.at(-1)?.id;
  }
}

export async function severBlockedDomain(
  ctx: ServiceContext,
  accountId: string,
  domain: string,
): Promise<void> {
  await clearNotifications(ctx, accountId, domain);
  const { follows, followRequests } = ctx.storage;
  const target = (e: Follow) => e.targetId;
  const source = (e: Follow) => e.accountId;
  const [following, requested, followers, requesters] = await Promise.all([
    allEdges(follows, accountId, "from").then((e) => onDomain(ctx, e, target, domain)),
    allEdges(followRequests, accountId, "from").then((e) => onDomain(ctx, e, target, domain)),
    allEdges(follows, accountId, "to").then((e) => onDomain(ctx, e, source, domain)),
    allEdges(followRequests, accountId, "to").then((e) => onDomain(ctx, e, source, domain)),
  ]);
  const steps: [Follow[], EdgeStore<Follow>, (edge: Follow) => DomainEvent][] = [
    [following, follows, (follow) => ({ type: "account.unfollowed", follow, cause: "unfollow" })],
    [
      requested,
      followRequests,
      (request) => ({ type: "follow_request.closed", request, outcome: "withdrawn" }),
    ],
    [followers, follows, (follow) => ({ type: "account.unfollowed", follow, cause: "removed" })],
    [
      requesters,
      followRequests,
      (request) => ({ type: "follow_request.closed", request, outcome: "rejected" }),
    ],
  ];
  for (const [edges, store, eventOf] of steps) {
    for (const edge of edges) {
      // Recorded before the edge goes (ADR 0013).
      await publishIf(ctx.events, eventOf(edge), () => store.delete(edge.accountId, edge.targetId));
    }
  }
}

export function domainBlockListener(ctx: ServiceContext): EventListener {
  return async (event) => {
    if (event.type !== "account.domain_blocked") return;
    await severBlockedDomain(ctx, event.block.accountId, event.block.targetId);
  };
}
