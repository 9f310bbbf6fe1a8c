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

import { deepFreeze } from "../../domain/deep-freeze.ts";
import { PairCache } from "../../domain/pair-cache.ts";
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
  // Ids are nearly always plain numbers: a test is cheaper than a replace.
  NEEDS_ESCAPE.test(id) ? id.replace(/[%,| ]/g, (c) => ESCAPES[c] as string) : id;
const UNESCAPES: Record<string, string> = { "%25": "%", "%2C": ",", "%7C": "|", "%20": " " };
const unescaped = (id: string) =>
  id.includes("%") ? id.replace(/%(25|2C|7C|20)/g, (c) => UNESCAPES[c] as string) : id;

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
  /** The kept edge of one pair: null when kept as none, undefined when not kept. */
  kept(kind: string, accountId: string, targetId: string): Edge | null | undefined;
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

/** A pair's name read back into its parts (the inverse of pairName). */
function pairOf(name: string): EdgePair | undefined {
  const [kind, account, target, extra] = name.split(" ");
  if (kind === undefined || account === undefined || target === undefined || extra !== undefined) {
    return undefined;
  }
  return { kind, accountId: unescaped(account), targetId: unescaped(target) };
}

/** A load under way: the pairs written since it began (their names), or all of them. */
interface Load {
  stale: Set<string> | "all";
}

export function createEdgeMemo(sql: Sql, changes: Changes): EdgeMemo {
  // Pairs by their three ids, not by name: a relationships request asks 180 (pair-cache.ts).
  let pairs = new PairCache<Edge | typeof MISSING>(PAIRS);
  const loads = new Set<Load>();
  changes.watchRows("edges", (names) => {
    if (names === undefined) {
      pairs = new PairCache(PAIRS);
      for (const load of loads) load.stale = "all";
      return;
    }
    for (const name of names) {
      const pair = pairOf(name);
      // A name this build cannot read (a newer writer's?): nothing kept can be trusted.
      if (pair === undefined) {
        pairs = new PairCache(PAIRS);
        for (const load of loads) load.stale = "all";
        return;
      }
      pairs.delete(pair.kind, pair.accountId, pair.targetId);
      for (const load of loads) if (load.stale !== "all") load.stale.add(name);
    }
  });
  const lists = createRowMemo<string[]>(changes, "edges", {
    capacity: LISTS,
    keyOf: listOf,
    keeps: (targets) => targets.length <= LIST_TARGETS,
  });
  const sourceLists = createRowMemo<Sources>(changes, "edges", {
    capacity: SOURCE_LISTS,
    keyOf: sourcesOf,
  });

  /** Reads the pairs not kept, by name (one statement of primary-key lookups), and keeps what no
   * write touched meanwhile. */
  async function load(byName: ReadonlyMap<string, EdgePair>): Promise<Map<string, Edge>> {
    const wanted = [...byName.values()];
    const entry: Load = { stale: new Set() };
    loads.add(entry);
    try {
      const rows = await sql<{ kind: string; account_id: string; target_id: string; data: Edge }[]>`
        select kind, account_id, target_id, data from edges
        where (kind, account_id, target_id) in (
          select * from unnest(${wanted.map((p) => p.kind)}::text[],
            ${wanted.map((p) => p.accountId)}::text[], ${wanted.map((p) => p.targetId)}::text[]))`;
      const found = new Map(rows.map((r) => [pairName(r.kind, r.account_id, r.target_id), r.data]));
      const { stale } = entry;
      if (stale !== "all") {
        for (const [name, p] of byName) {
          if (stale.has(name)) continue;
          const edge = found.get(name);
          // Kept edges are shared by every later reader: frozen, as json-file's are.
          pairs.set(
            p.kind,
            p.accountId,
            p.targetId,
            edge === undefined ? MISSING : deepFreeze(edge),
          );
        }
      }
      return found;
    } finally {
      loads.delete(entry);
    }
  }

  return {
    kept(kind, accountId, targetId) {
      const kept = pairs.get(kind, accountId, targetId);
      return kept === MISSING ? null : kept;
    },
    async find(asked) {
      const answers = new Array<Edge | undefined>(asked.length);
      const missing: number[] = [];
      for (let i = 0; i < asked.length; i++) {
        const p = asked[i] as EdgePair;
        const kept = pairs.get(p.kind, p.accountId, p.targetId);
        if (kept === undefined) missing.push(i);
        else answers[i] = kept === MISSING ? undefined : kept;
      }
      // Between writes every pair is kept: answered without a name, a map or a wait.
      if (missing.length === 0) return answers;
      const names = missing.map((i) => {
        const p = asked[i] as EdgePair;
        return pairName(p.kind, p.accountId, p.targetId);
      });
      const byName = new Map(
        names.map((name, n) => [name, asked[missing[n] as number] as EdgePair]),
      );
      const found = await load(byName);
      missing.forEach((i, n) => {
        answers[i] = found.get(names[n] as string);
      });
      return answers;
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
