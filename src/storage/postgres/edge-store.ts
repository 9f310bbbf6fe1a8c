// One kind of edge (follows, blocks, favourites, poll votes…) as rows of the shared `edges` table
// (migration 0005), told apart by `kind`. The pair (account, target) is the key: a put replaces
// the pair's edge in one statement, keeping the id it is given, as the json-file store does.
//
// Changes of one pair from this process run one at a time, in call order (as in the json-file
// store); between processes the database's row locks settle them.
//
// The lookups of pairs and the lists of an account's targets are kept in this process until a
// write names them (edge-memo.ts); `get`, read before writes, and the pages always ask.

import type { Edge } from "../../domain/relations.ts";
import { KeyedQueue } from "../json-file/keyed-queue.ts";
import type { EdgeKind, EdgeStore, IdPage } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { edgeCounted } from "./count-signals.ts";
import { type EdgeMemo, type EdgePair, pairName } from "./edge-memo.ts";
import { type IdBounds, idBounds, idWindow } from "./id-window.ts";
import { jobInsert } from "./job-store.ts";
import { jsonb } from "./jsonb.ts";

/** The `kind` of each edge store's rows. */
export const EDGE_KINDS: Record<EdgeKind, string> = {
  follows: "follows",
  followRequests: "follow-requests",
  blocks: "blocks",
  mutes: "mutes",
  favourites: "favourites",
  bookmarks: "bookmarks",
  pins: "pins",
  conversationMutes: "conversation-mutes",
  pollVotes: "poll-votes",
  announcementDismissals: "announcement-dismissals",
  tagFollows: "tag-follows",
  featuredTags: "featured-tags",
  listMembers: "list-members",
  accountNotes: "account-notes",
  accountDomainBlocks: "account-domain-blocks",
  notificationPermissions: "notification-permissions",
  endorsements: "endorsements",
  suggestionDismissals: "suggestion-dismissals",
  quotes: "quotes",
};

const pairKey = (accountId: string, targetId: string) => `${accountId} ${targetId}`;

/**
 * The kinds whose edges to a target are kept whole (edge-memo.ts `sources`): follows, whose
 * every page every post's listeners read. Not the others, read a page at a time (favourited by,
 * list members): a target with more edges than are kept would then be read a thousand rows deep
 * after each change, where a page reads forty.
 */
const KEPT_SOURCES: ReadonlySet<string> = new Set(["follows"]);

/** The page of a newest-first list of edges that `bounds` and `page` ask for (id-window.ts). */
function pageOf<E extends Edge>(all: readonly E[], bounds: IdBounds, page: IdPage): E[] {
  const { above, below } = bounds;
  const inside =
    above === undefined && below === undefined
      ? all
      : all.filter((e) => {
          const id = BigInt(e.id);
          return (below === undefined || id < below) && (above === undefined || id > above);
        });
  // min_id: the oldest `limit` above it, still newest first; otherwise the newest.
  return page.minId !== undefined
    ? inside.slice(Math.max(inside.length - page.limit, 0))
    : inside.slice(0, page.limit);
}

/** The count per key, with a zero for every key asked about and not found. */
function countsOf(keys: readonly string[], rows: readonly { key: string; n: string }[]) {
  const counts = new Map(keys.map((key) => [key, 0]));
  for (const row of rows) counts.set(row.key, Number(row.n));
  return counts;
}

export function createEdgeStore<E extends Edge>(
  db: PgContext,
  kind: string,
  memo: EdgeMemo,
): EdgeStore<E> {
  const { sql, changes } = db;
  const queue = new KeyedQueue();

  /** The edge counts of `ids` on one side, with a zero for every id without edges. */
  async function counted(side: "from" | "to", ids: readonly string[]) {
    if (ids.length === 0) return new Map<string, number>();
    const rows = await sql<{ key: string; n: string }[]>`
      select id as key, n from edge_counts
      where kind = ${kind} and side = ${side} and id = any(${ids as string[]}::text[])`;
    return countsOf(ids, rows);
  }

  /** The edges of `pairs` that exist (kept or read: edge-memo.ts), by the other side's id. */
  async function found(pairs: EdgePair[], other: (edge: E) => string) {
    const edges = (await memo.find(pairs)).filter((edge) => edge !== undefined) as E[];
    return new Map(edges.map((edge) => [other(edge), edge]));
  }

  /** One page of the edges from an account or to a target, newest first. */
  async function listBy(column: "account_id" | "target_id", value: string, page: IdPage) {
    const w = idWindow(sql, page);
    if (!w) return [];
    const rows = await sql<{ data: E }[]>`
      select data from (
        select id, data from edges
        where kind = ${kind} and ${sql(column)} = ${value} ${w.where}
        order by id ${w.direction} limit ${w.limit}
      ) edge_window
      order by id desc`;
    return rows.map((r) => r.data);
  }

  return {
    async get(accountId, targetId) {
      const rows = await sql<{ data: E }[]>`
        select data from edges
        where kind = ${kind} and account_id = ${accountId} and target_id = ${targetId}`;
      return rows[0]?.data;
    },
    put(edge) {
      return queue.run(pairKey(edge.accountId, edge.targetId), async () => {
        // The edge's id names one edge of the kind (the json-file store files edges by id): an
        // id put again with another pair moves the edge there. A job the write carries (an
        // event's record, outbox.ts) is stored by the same statement.
        // The pair it moved from comes back, to be forgotten with the pair written.
        const carried = await db.outbox.take();
        const statement = sql<{ account_id: string; target_id: string }[]>`
          with ${carried ? sql`job as (${jobInsert(sql, carried.job)}),` : sql``} moved as (
            delete from edges
            where kind = ${kind} and id = ${edge.id}::bigint
              and (account_id, target_id) <> (${edge.accountId}::text, ${edge.targetId}::text)
            returning account_id, target_id
          ), put as (
            insert into edges (kind, account_id, target_id, id, data)
            values (${kind}, ${edge.accountId}, ${edge.targetId}, ${edge.id}::bigint,
              ${jsonb(sql, edge)})
            on conflict (kind, account_id, target_id)
            do update set id = excluded.id, data = excluded.data
          )
          select account_id, target_id from moved`;
        carried?.settle(statement);
        const moved = await statement;
        memo.written([
          pairName(kind, edge.accountId, edge.targetId),
          ...moved.map((r) => pairName(kind, r.account_id, r.target_id)),
        ]);
        edgeCounted(changes, kind, edge.accountId, edge.targetId);
      });
    },
    delete(accountId, targetId) {
      return queue.run(pairKey(accountId, targetId), async () => {
        const rows = await sql`
          delete from edges
          where kind = ${kind} and account_id = ${accountId} and target_id = ${targetId}
          returning 1`;
        if (rows.length === 0) return false;
        memo.written([pairName(kind, accountId, targetId)]);
        edgeCounted(changes, kind, accountId, targetId);
        return true;
      });
    },
    listFrom: (accountId, page) => listBy("account_id", accountId, page),
    // A target's follows (an author's followers, read by every post's listeners) kept whole in
    // this process until one of them changes (edge-memo.ts), pages cut from them; a target
    // with more than SOURCE_EDGES is read page by page, as are the other kinds.
    async listTo(targetId, page) {
      if (!KEPT_SOURCES.has(kind)) return listBy("target_id", targetId, page);
      const bounds = page.limit > 0 ? idBounds(page) : undefined;
      if (bounds === undefined) return [];
      const all = await memo.sources(kind, targetId, async (limit) => {
        const rows = await sql<{ data: E }[]>`
          select data from edges where kind = ${kind} and target_id = ${targetId}
          order by id desc limit ${limit}`;
        return rows.map((r) => r.data);
      });
      return all === undefined
        ? listBy("target_id", targetId, page)
        : pageOf(all as readonly E[], bounds, page);
    },
    // Counts come from edge_counts, kept by a row trigger in each edge write's transaction
    // (migration 0013): a key lookup where count(*) read every edge of a popular target.
    async countFrom(accountId) {
      return (await counted("from", [accountId])).get(accountId) ?? 0;
    },
    async countTo(targetId) {
      return (await counted("to", [targetId])).get(targetId) ?? 0;
    },
    countFromMany: (accountIds) => counted("from", accountIds),
    countToMany: (targetIds) => counted("to", targetIds),
    findFrom: (accountId, targetIds) =>
      found(
        targetIds.map((targetId) => ({ kind, accountId, targetId })),
        (e) => e.targetId,
      ),
    findTo: (targetId, accountIds) =>
      found(
        accountIds.map((accountId) => ({ kind, accountId, targetId })),
        (e) => e.accountId,
      ),
    allTargetsFrom: (accountId) =>
      memo.targets(kind, accountId, async () => {
        const rows = await sql<{ target_id: string }[]>`
          select target_id from edges
          where kind = ${kind} and account_id = ${accountId}
          order by id desc`;
        return rows.map((r) => r.target_id);
      }),
  };
}
