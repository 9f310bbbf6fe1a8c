// Edges kept in this process between reads, by pair, as json-file keeps them in memory: every
// signed-in page asks of its authors and statuses whether the viewer follows, blocks, mutes,
// favourited, bookmarked, pinned… (JoinedReads.edges), and of the viewer which servers they
// block and whom they follow (allTargetsFrom), which cost statements on every request. A write
// names the pairs it changed ("kind account target", migration 0038): this process's own as it
// resolves, another's when its change notification arrives; a row memo (row-memo.ts) forgets
// those pairs, and the lists of targets of their (kind, account). A write that names none (a bulk
// statement, TRUNCATE, missed notifications) empties both. So a kept edge outlives a write by no
// more than the notification's trip, the bound of the status memo (ADR 0033, ADR 0041).
//
// Not kept: EdgeStore.get, which the use cases read under a lock before they write (is there a
// follow already? is this the follow the event recorded?): it always asks the database.

import type { Edge } from "../../domain/relations.ts";
import type { Changes } from "./changes.ts";
import type { Sql } from "./connect.ts";
import { MISSING } from "./record-memo.ts";
import { createRowMemo } from "./row-memo.ts";

/** Pairs kept at most: a page's hydration asks a few hundred. */
const PAIRS = 50_000;
/** Lists of targets kept at most, each of at most LIST_TARGETS (a longer one is asked each time). */
const LISTS = 1_000;
const LIST_TARGETS = 2_000;
/** Lists of the edges to a target kept at most (an author's followers, read by every post). */
const SOURCE_LISTS = 500;
/** The most edges a kept list of sources holds: a longer one is kept as "too long", asked by page. */
export const SOURCE_EDGES = 1_000;

const ESCAPES: Record<string, string> = { "%": "%25", ",": "%2C", "|": "%7C", " ": "%20" };
/** An id as a pair's name holds it (migration 0038's wren_edge_pair): no separator left in it. */
const NEEDS_ESCAPE = /[%,| ]/;
const escaped = (id: string) =>
  // Ids are nearly always plain numbers: a test is cheaper than a replace (a relationships
  // request names 180 pairs).
  NEEDS_ESCAPE.test(id) ? id.replace(/[%,| ]/g, (c) => ESCAPES[c] as string) : id;

/** What a write's change signal names an edge by: "kind account target", ids escaped. */
export const pairName = (kind: string, accountId: string, targetId: string) =>
  `${kind} ${escaped(accountId)} ${escaped(targetId)}`;
/** The key of the list of an account's targets of a kind: its pairs' names up to the target. */
const listName = (kind: string, accountId: string) => `${kind} ${escaped(accountId)}`;
const listOf = (pair: string) => pair.slice(0, pair.lastIndexOf(" "));
/** The key of the list of the edges of a kind to a target ("kind > target": no pair's prefix). */
const sourcesName = (kind: string, targetId: string) => `${kind} > ${escaped(targetId)}`;
const sourcesOf = (pair: string) =>
  `${pair.slice(0, pair.indexOf(" "))} >${pair.slice(pair.lastIndexOf(" "))}`;

/** The edges to a target, newest first; null when there were more than SOURCE_EDGES. */
interface Sources {
  edges: Edge[] | null;
}

/** One edge asked about: the kind as stored (EDGE_KINDS), from `accountId` to `targetId`. */
export interface EdgePair {
  kind: string;
  accountId: string;
  targetId: string;
}

export interface EdgeMemo {
  /** The edge of each of `pairs`, if any, in order; one statement for the pairs not kept. */
  find(pairs: readonly EdgePair[]): Promise<(Edge | undefined)[]>;
  /** An account's targets of a kind (as `load` answers them), kept until one of them changes. */
  targets(kind: string, accountId: string, load: () => Promise<string[]>): Promise<string[]>;
  /**
   * Every edge of a kind to a target, newest first (`load` reads at most SOURCE_EDGES + 1),
   * kept until one of them changes; undefined when there are more than SOURCE_EDGES.
   */
  sources(
    kind: string,
    targetId: string,
    load: (limit: number) => Promise<Edge[]>,
  ): Promise<readonly Edge[] | undefined>;
  /** This process's write to the pairs `names`: forgotten at once, and the version moves. */
  written(names: readonly string[]): void;
}

export function createEdgeMemo(sql: Sql, changes: Changes): EdgeMemo {
  const pairs = createRowMemo<Edge>(changes, "edges", { capacity: PAIRS });
  const lists = createRowMemo<string[]>(changes, "edges", {
    capacity: LISTS,
    keyOf: listOf,
    keeps: (targets) => targets.length <= LIST_TARGETS,
  });
  const sourceLists = createRowMemo<Sources>(changes, "edges", {
    capacity: SOURCE_LISTS,
    keyOf: sourcesOf,
  });
  /** The kept edge of every name (undefined: none), or undefined when one is not kept. */
  const keptAnswers = (names: readonly string[]): (Edge | undefined)[] | undefined => {
    const answers = new Array<Edge | undefined>(names.length);
    for (let i = 0; i < names.length; i++) {
      const kept = pairs.peek(names[i] as string);
      if (kept === undefined) return undefined;
      answers[i] = kept === MISSING ? undefined : kept;
    }
    return answers;
  };
  return {
    async find(asked) {
      const names = asked.map((p) => pairName(p.kind, p.accountId, p.targetId));
      // Between writes every pair is kept: answered without the maps and the load below (a
      // relationships request asks 180 pairs; this was most of its extra cost over json-file).
      const kept = keptAnswers(names);
      if (kept !== undefined) return kept;
      const byName = new Map(names.map((name, i) => [name, asked[i] as EdgePair]));
      if (byName.size === 0) return [];
      const found = await pairs.getMany([...byName.keys()], async (missing) => {
        const wanted = missing.map((name) => byName.get(name) as EdgePair);
        // Each pair a primary-key lookup, whatever kinds and directions were asked together.
        const rows = await sql<
          { kind: string; account_id: string; target_id: string; data: Edge }[]
        >`
          select kind, account_id, target_id, data from edges
          where (kind, account_id, target_id) in (
            select * from unnest(${wanted.map((p) => p.kind)}::text[],
              ${wanted.map((p) => p.accountId)}::text[], ${wanted.map((p) => p.targetId)}::text[]))`;
        return new Map(rows.map((r) => [pairName(r.kind, r.account_id, r.target_id), r.data]));
      });
      return names.map((name) => found.get(name));
    },
    async targets(kind, accountId, load) {
      // A copy: the kept list is frozen, and callers may sort or extend theirs.
      return [...((await lists.get(listName(kind, accountId), load)) ?? [])];
    },
    async sources(kind, targetId, load) {
      const kept = await sourceLists.get(sourcesName(kind, targetId), async () => {
        const edges = await load(SOURCE_EDGES + 1);
        return { edges: edges.length > SOURCE_EDGES ? null : edges };
      });
      return kept?.edges ?? undefined;
    },
    written(names) {
      changes.rows("edges", names);
    },
  };
}
