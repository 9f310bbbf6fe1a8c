// Statuses: `statuses/<account_id>/<status_id>.json`, one file each, the `deleted` flag kept in
// the file. In memory: a row of the status table for every status (deleted ones too, so they can
// answer 404/410) and the sorted row lists of StatusIndexes (per author, public, per hashtag,
// replies, reblogs), which serve every list and count without scanning; bodies are read through
// StatusRecords' bounded cache only for the page that is returned.

import type { Status, TimelineEntry } from "../../domain/status.ts";
import type { IdPage, PublicFilter, StatusStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { mergeRuns } from "./id-merge.ts";
import { forEachLimit } from "./parallel.ts";
import { publicPredicate, statusPredicate } from "./status-filter.ts";
import { bound, listKey, type Origin, type Run, StatusIndexes } from "./status-indexes.ts";
import { StatusRecords, type StatusRecordsOptions } from "./status-records.ts";

/** The port plus what only the backend itself uses. */
export interface JsonFileStatusStore extends StatusStore {
  /**
   * Refuses new writes, waits for those in flight and closes the journal's file (first step of
   * the storage's close).
   */
  closeWrites(): Promise<void>;
  /** Writes the start-up snapshot: after closeWrites() and once the writer is closed. */
  checkpoint(): Promise<void>;
  /** "snapshot", or why every file was read at start instead. */
  readonly loadedFrom: string;
  /** Status files read at start: every one without a usable snapshot, else the journaled ones. */
  readonly filesReadAtStart: number;
  /** Resolves once the files of the writes acknowledged so far are written (ADR 0084), or failed. */
  filed(): Promise<void>;
}

export async function openStatusStore(
  root: string,
  writer: DurableWriter,
  options: Omit<StatusRecordsOptions, "listen"> = {},
): Promise<JsonFileStatusStore> {
  let made: StatusIndexes | undefined;
  const records = await StatusRecords.open(root, writer, {
    ...options,
    listen: (table) => {
      made = new StatusIndexes(table);
      made.beginLoad();
      return made;
    },
  });
  const indexes = made as StatusIndexes;
  indexes.endLoad();
  const table = records.table;

  /** The rows of the window over the runs, newest first, rows a test rejects skipped. */
  const window = (runs: Run[], page: IdPage, test?: (row: number) => boolean): number[] => {
    const cut = runs.map((run) => bound(table, run, page));
    const items = cut.map(({ rows, lo, hi }) => ({ items: rows, lo, hi }));
    const compare = (a: number, b: number) => table.compare(a, b);
    return mergeRuns(items, page.minId !== undefined, page.limit, compare, test);
  };
  /** Walks the lists with a predicate on the rows (no body read until the page is cut). */
  const walk = (keys: Iterable<string>, page: IdPage, test?: (row: number) => boolean) =>
    window(indexes.runs(keys), page, test);
  /** The ids of rows just found (synchronously: a row may hold another status after an await). */
  const idsOf = (rows: readonly number[]) => rows.map((row) => table.idOf(row));
  /** Every id of a run, oldest first. */
  const all = ({ rows, lo, hi }: Run) =>
    Array.from(rows.subarray(lo, hi), (row) => table.idOf(row));
  // Cached bodies are taken synchronously (a timeline page costs no promise per status); only
  // cold ones are read, at most 64 at a time (a thread's replies can be thousands of files).
  const read = async (ids: readonly string[]): Promise<(Status | undefined)[]> => {
    const out = new Array<Status | undefined>(ids.length);
    const cold: number[] = [];
    ids.forEach((id, i) => {
      const found = records.get(id);
      if (found instanceof Promise) cold.push(i);
      else out[i] = found;
    });
    if (cold.length > 0) {
      await forEachLimit(cold, 64, async (i) => {
        out[i] = await records.get(ids[i] as string);
      });
    }
    return out;
  };
  const load = async (ids: readonly string[]): Promise<Status[]> =>
    (await read(ids)).filter((s) => s !== undefined);
  const entries = (rows: readonly number[]): TimelineEntry[] =>
    rows.map((row) => ({ account_id: table.accountOf(row), status_id: table.idOf(row) }));
  /** The name of the author's list (one that is never filed when the author has no row). */
  const byAuthor = (accountId: string) => listKey.account(table.accountIndex(accountId));
  const origins = (filter: PublicFilter): Origin[] =>
    filter.origin === "all" ? ["local", "remote"] : [filter.origin];

  return {
    get loadedFrom() {
      return records.loadedFrom;
    },
    get filesReadAtStart() {
      return records.filesRead;
    },
    closeWrites: () => records.close(),
    filed: () => records.filed(),
    checkpoint: () => records.checkpoint(),
    async get(id) {
      return records.get(id);
    },
    async getMany(ids) {
      const found = new Map<string, Status>();
      for (const status of await read(ids)) if (status) found.set(status.id, status);
      return found;
    },
    async findByUri(uri) {
      const row = await indexes.findByUri(uri);
      return row < 0 ? undefined : records.get(table.idOf(row));
    },
    put(status) {
      return records.put(status);
    },
    listByAccount(accountId, page, filter) {
      return load(idsOf(walk([byAuthor(accountId)], page, statusPredicate(table, filter))));
    },
    async countByAccount(accountId) {
      return indexes.count(byAuthor(accountId));
    },
    async accountFacts(accountIds) {
      const newestIds = accountIds.map((id) => idsOf(walk([byAuthor(id)], { limit: 1 }))[0]);
      const newest = await read(newestIds.flatMap((id) => (id === undefined ? [] : [id])));
      const createdAt = new Map(newest.flatMap((s) => (s ? [[s.id, s.createdAt] as const] : [])));
      return new Map(
        accountIds.map((id, i) => {
          const newestId = newestIds[i];
          return [
            id,
            {
              count: indexes.count(byAuthor(id)),
              lastStatusAt: newestId === undefined ? null : (createdAt.get(newestId) ?? null),
            },
          ];
        }),
      );
    },
    async countLocal() {
      return indexes.localCount;
    },
    async listEntriesByAccounts(accountIds, page) {
      const keys = new Set(accountIds.map(byAuthor));
      return entries(walk(keys, page));
    },
    async listPublicEntries(page, filter) {
      const keys = origins(filter).map(listKey.public);
      return entries(walk(keys, page, publicPredicate(table, filter)));
    },
    async listTagEntries(tag, page, filter) {
      const keys = origins(filter).map((origin) => listKey.tag(origin, tag));
      return entries(walk(keys, page, publicPredicate(table, filter)));
    },
    listReplies(statusId) {
      return load(all(indexes.replies(statusId)));
    },
    async countReplies(statusId) {
      const { lo, hi } = indexes.replies(statusId);
      return hi - lo;
    },
    async findReblog(accountId, statusId) {
      const row = indexes.findReblog(accountId, statusId);
      return row < 0 ? undefined : records.get(table.idOf(row));
    },
    listReblogs(statusId, page) {
      return load(idsOf(window([indexes.reblogs(statusId)], page)));
    },
    async countReblogs(statusId) {
      const { lo, hi } = indexes.reblogs(statusId);
      return hi - lo;
    },
    async interactionCounts(statusIds) {
      return new Map(statusIds.map((id) => [id, indexes.interactions(id)]));
    },
    async findReblogs(accountId, statusIds) {
      const reblogIds = statusIds.flatMap((id) => {
        const row = indexes.findReblog(accountId, id);
        return row < 0 ? [] : [[id, table.idOf(row)] as const];
      });
      const reblogs = await read(reblogIds.map(([, reblogId]) => reblogId));
      const found = new Map<string, Status>();
      reblogIds.forEach(([id], i) => {
        const reblog = reblogs[i];
        if (reblog) found.set(id, reblog);
      });
      return found;
    },
    listDeleted(page) {
      return load(idsOf(walk([listKey.deleted()], page)));
    },
    listRemote(page) {
      return load(idsOf(walk([listKey.remote()], page)));
    },
    delete(id) {
      return records.remove(id);
    },
  };
}
