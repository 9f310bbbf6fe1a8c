// The query plans of the PostgreSQL stores' list queries, taken from the real store code: a
// connection that loads auto_explain (logging every statement's EXPLAIN ANALYZE at LOG level,
// which client_min_messages = log sends to the client as a notice) runs each store call, and the
// plan of its last statement is kept. Each call runs three times; the last (warm) plan counts.

import postgres from "postgres";
import { createChanges } from "../../src/storage/postgres/changes.ts";
import { createEdgeMemo } from "../../src/storage/postgres/edge-memo.ts";
import { createEdgeStore } from "../../src/storage/postgres/edge-store.ts";
import { createNotificationStore } from "../../src/storage/postgres/notification-store.ts";
import { createOutbox } from "../../src/storage/postgres/outbox.ts";
import { createStatusStore } from "../../src/storage/postgres/status-store.ts";

export interface PlanResult {
  name: string;
  /** The plan's nodes, outermost first, joined by " → " (index names included). */
  plan: string;
  /** Execution time of the warm run, ms (auto_explain's duration). */
  ms: number;
  rows: number;
}

export interface PlanSubjects {
  viewerId: string;
  /** Authors the viewer follows (the home timeline's). */
  followedIds: string[];
  authorId: string;
  /** A status some authors favourited and replied to. */
  statusId: string;
  /** An id in the middle of the statuses, for deep pages (max_id). */
  middleId: string;
  /** The same for the viewer's notifications. */
  middleNotificationId: string;
}

/** "Limit → Index Scan Backward using statuses_public on statuses" from a text plan. */
function summarize(plan: string): string {
  const nodes: string[] = [];
  for (const line of plan.split("\n")) {
    const m = line.match(/^\s*(?:->\s*)?([A-Z][A-Za-z ]+?(?: using \w+)?(?: on \w+)?)\s+\(cost/);
    if (m?.[1]) nodes.push(m[1]);
  }
  return nodes.join(" → ");
}

export async function explainStoreQueries(
  url: string,
  subjects: PlanSubjects,
): Promise<PlanResult[]> {
  let last: { plan: string; ms: number } | undefined;
  const sql = postgres(url, {
    max: 1,
    connection: {
      // As Wren's own pool (src/storage/postgres/connect.ts).
      jit: "off",
      session_preload_libraries: "auto_explain",
      "auto_explain.log_min_duration": "0",
      "auto_explain.log_analyze": "on",
      "auto_explain.log_timing": "on",
      client_min_messages: "log",
    },
    onnotice: (notice) => {
      const m = String(notice.message).match(/^duration: ([\d.]+) ms\s+plan:\n([\s\S]*)$/);
      if (m) last = { ms: Number(m[1]), plan: m[2] as string };
    },
  });
  const db = { sql, changes: createChanges(), outbox: createOutbox(async () => {}), self: "bench" };
  const statuses = createStatusStore(db);
  const notifications = createNotificationStore(db);
  const edgeMemo = createEdgeMemo(sql, db.changes);
  const favourites = createEdgeStore(db, "favourites", edgeMemo);
  const follows = createEdgeStore(db, "follows", edgeMemo);
  const { viewerId, followedIds, authorId, statusId, middleId, middleNotificationId } = subjects;
  const calls: [string, () => Promise<unknown>][] = [
    [
      "statuses.listPublicEntries (all)",
      () => statuses.listPublicEntries({ limit: 20 }, { origin: "all" }),
    ],
    [
      "statuses.listPublicEntries (local)",
      () => statuses.listPublicEntries({ limit: 20 }, { origin: "local" }),
    ],
    [
      "statuses.listPublicEntries (remote)",
      () => statuses.listPublicEntries({ limit: 20 }, { origin: "remote" }),
    ],
    [
      "statuses.listPublicEntries (all, max_id mid-way)",
      () => statuses.listPublicEntries({ limit: 20, maxId: middleId }, { origin: "all" }),
    ],
    [
      "statuses.listPublicEntries (only media)",
      () => statuses.listPublicEntries({ limit: 20 }, { origin: "all", onlyMedia: true }),
    ],
    [
      "statuses.listEntriesByAccounts (home, 50 authors)",
      () => statuses.listEntriesByAccounts(followedIds, { limit: 20 }),
    ],
    [
      "statuses.listEntriesByAccounts (home, max_id mid-way)",
      () => statuses.listEntriesByAccounts(followedIds, { limit: 20, maxId: middleId }),
    ],
    [
      "statuses.listEntriesByAccounts (home, since_id)",
      () => statuses.listEntriesByAccounts(followedIds, { limit: 20, sinceId: middleId }),
    ],
    [
      "statuses.listTagEntries (#wren, a tenth)",
      () => statuses.listTagEntries("wren", { limit: 20 }, { origin: "all" }),
    ],
    [
      "statuses.listTagEntries (#tag5, local)",
      () => statuses.listTagEntries("tag5", { limit: 20 }, { origin: "local" }),
    ],
    ["statuses.listByAccount", () => statuses.listByAccount(authorId, { limit: 20 })],
    [
      "statuses.listByAccount (exclude replies)",
      () => statuses.listByAccount(authorId, { limit: 20 }, { excludeReplies: true }),
    ],
    [
      "statuses.listByAccount (only media)",
      () => statuses.listByAccount(authorId, { limit: 20 }, { onlyMedia: true }),
    ],
    [
      "statuses.listByAccount (tagged)",
      () => statuses.listByAccount(authorId, { limit: 20 }, { tagged: "wren" }),
    ],
    ["statuses.countByAccount", () => statuses.countByAccount(authorId)],
    ["statuses.accountFacts (20 authors)", () => statuses.accountFacts(followedIds.slice(0, 20))],
    ["statuses.countLocal", () => statuses.countLocal()],
    ["statuses.listReplies", () => statuses.listReplies(statusId)],
    ["statuses.listReblogs", () => statuses.listReblogs(statusId, { limit: 40 })],
    ["statuses.interactionCounts (20)", () => statuses.interactionCounts([statusId, middleId])],
    ["statuses.findReblogs (20)", () => statuses.findReblogs(viewerId, [statusId, middleId])],
    ["statuses.listDeleted", () => statuses.listDeleted({ limit: 100 })],
    ["notifications.listFor", () => notifications.listFor(viewerId, { limit: 40 })],
    [
      "notifications.listFor (types: mention)",
      () => notifications.listFor(viewerId, { limit: 40 }, { types: ["mention"] }),
    ],
    [
      "notifications.listFor (exclude favourite, reblog)",
      () =>
        notifications.listFor(viewerId, { limit: 40 }, { excludeTypes: ["favourite", "reblog"] }),
    ],
    [
      "notifications.listFor (max_id mid-way)",
      () => notifications.listFor(viewerId, { limit: 40, maxId: middleNotificationId }),
    ],
    [
      "notifications.countFor (unread, limit 1000)",
      () => notifications.countFor(viewerId, { sinceId: "0", limit: 1000 }),
    ],
    [
      "favourites.listFrom (an author's favourites)",
      () => favourites.listFrom(authorId, { limit: 40 }),
    ],
    [
      "favourites.listTo (a status's favouriters)",
      () => favourites.listTo(statusId, { limit: 40 }),
    ],
    ["favourites.countFrom", () => favourites.countFrom(authorId)],
    ["favourites.countToMany (20)", () => favourites.countToMany([statusId, middleId])],
    ["favourites.findFrom (20)", () => favourites.findFrom(authorId, [statusId, middleId])],
    ["follows.listFrom (the viewer's follows)", () => follows.listFrom(viewerId, { limit: 40 })],
    ["follows.allTargetsFrom", () => follows.allTargetsFrom(viewerId)],
  ];
  const results: PlanResult[] = [];
  try {
    for (const [name, call] of calls) {
      let answer: unknown;
      for (let run = 0; run < 3; run++) {
        // The statements are measured, not the memos that would answer the runs after the first.
        db.changes.bumpAll();
        answer = await call();
      }
      const rows = answer instanceof Map ? answer.size : Array.isArray(answer) ? answer.length : 1;
      const plan = last?.plan ?? "";
      results.push({ name, plan: summarize(plan), ms: last?.ms ?? Number.NaN, rows });
    }
  } finally {
    await sql.end();
  }
  return results;
}
