// Ends every follow and follow request between local accounts and the accounts of a blocked
// domain, in both directions (Mastodon's suspend-severity domain block does the same). Walked
// from the local side: local accounts are few, and the store has no index by remote domain.
// Each ended edge publishes the same events as a personal block, so counters and home feeds
// follow; the outbox bridge sends nothing to a blocked domain.

import type { Edge } from "../../domain/relations.ts";
import type { EdgeStore } from "../../storage/ports.ts";
import type { ServiceContext } from "../context.ts";
import { publishIf } from "../events.ts";

const PAGE = 200;

/** Every edge from (or to) an account, paging newest first (also used by user domain blocks). */
export async function allEdges<E extends Edge>(
  store: EdgeStore<E>,
  accountId: string,
  direction: "from" | "to",
): Promise<E[]> {
  const out: E[] = [];
  let maxId: string | undefined;
  for (;;) {
    const page =
      direction === "from"
        ? await store.listFrom(accountId, { limit: PAGE, maxId })
        : await store.listTo(accountId, { limit: PAGE, maxId });
    out.push(...page);
    if (page.length < PAGE) return out;
    maxId = page[page.length - 1]?.id;
  }
}

/** Removes the edges whose other end is on a host `blocked` accepts; returns how many. */
export async function severDomain(
  ctx: ServiceContext,
  blocked: (host: string) => boolean,
): Promise<number> {
  const { follows, followRequests, accounts } = ctx.storage;
  let severed = 0;
  for (const user of await ctx.storage.users.list()) {
    const local = user.accountId;
    for (const [store, kind] of [
      [follows, "follow"],
      [followRequests, "request"],
    ] as const) {
      const edges = [
        ...(await allEdges(store, local, "from")),
        ...(await allEdges(store, local, "to")),
      ];
      const others = await accounts.getMany(
        edges.map((e) => (e.accountId === local ? e.targetId : e.accountId)),
      );
      for (const edge of edges) {
        const other = others.get(edge.accountId === local ? edge.targetId : edge.accountId);
        if (!other || other.domain === null || !blocked(other.domain)) continue;
        // Recorded before the edge goes (ADR 0013).
        const event =
          kind === "follow"
            ? ({ type: "account.unfollowed", follow: edge, cause: "block" } as const)
            : ({ type: "follow_request.closed", request: edge, outcome: "blocked" } as const);
        if (await publishIf(ctx.events, event, () => store.delete(edge.accountId, edge.targetId)))
          severed++;
      }
    }
  }
  return severed;
}
