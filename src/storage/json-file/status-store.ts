// Statuses: `statuses/<account_id>/<status_id>.json`, one file each, the `deleted` flag kept in
// the file. In memory: a summary of every status (deleted ones too, so they can answer 404/410)
// and the sorted id lists of StatusIndexes (per author, public, per hashtag, replies, reblogs),
// which serve every list and count without scanning; bodies are read through StatusRecords'
// bounded cache only for the page that is returned.

import type { Status, TimelineEntry } from "../../domain/status.ts";
import type { IdPage, PublicFilter, StatusStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { mergePage } from "./id-merge.ts";
import { forEachLimit } from "./parallel.ts";
import type { SortedIds } from "./sorted-ids.ts";
import { publicPredicate, statusPredicate } from "./status-filter.ts";
import { listKey, type Origin, StatusIndexes } from "./status-indexes.ts";
import { StatusRecords, type StatusRecordsOptions } from "./status-records.ts";
import type { StatusSummary } from "./status-summary.ts";

/** The port plus what only the backend itself uses. */
export interface JsonFileStatusStore extends StatusStore {
  /** Refuses new writes, waits for those in flight (first step of the storage's close). */
  closeWrites(): Promise<void>;
  /** Writes the start-up snapshot: after closeWrites() and once the writer is closed. */
  checkpoint(): Promise<void>;
  /** "snapshot", or why every file was read at start instead. */
  readonly loadedFrom: string;
  /** Status files read at start: every one without a usable snapshot, else the journaled ones. */
  readonly filesReadAtStart: number;
}

export async function openStatusStore(
  root: string,
  writer: DurableWriter,
  options: Omit<StatusRecordsOptions, "onChange"> = {},
): Promise<JsonFileStatusStore> {
  const indexes = new StatusIndexes();
  indexes.deferUris();
  const records = await StatusRecords.open(root, writer, {
    ...options,
    onChange: (previous, next) => indexes.update(previous, next),
  });
  indexes.buildUris(records.summaries());

  const lists = (keys: Iterable<string>): SortedIds[] => {
    const found: SortedIds[] = [];
    for (const key of keys) {
      const list = indexes.list(key);
      if (list) found.push(list);
    }
    return found;
  };
  /** Walks the lists with a predicate on the summaries (no body read until the page is cut). */
  const walk = (keys: Iterable<string>, page: IdPage, test?: (s: StatusSummary) => boolean) =>
    mergePage(lists(keys), page, test && ((id) => test(records.summary(id) as StatusSummary)));
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
  const entries = (ids: readonly string[]): TimelineEntry[] =>
    ids.map((id) => ({
      account_id: (records.summary(id) as StatusSummary).accountId,
      status_id: id,
    }));
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
      const id = await indexes.findByUri(uri);
      return id === undefined ? undefined : records.get(id);
    },
    put(status) {
      return records.put(status);
    },
    listByAccount(accountId, page, filter) {
      return load(walk([listKey.account(accountId)], page, statusPredicate(filter)));
    },
    async countByAccount(accountId) {
      return indexes.count(listKey.account(accountId));
    },
    async accountFacts(accountIds) {
      const newestIds = accountIds.map((id) => walk([listKey.account(id)], { limit: 1 })[0]);
      const newest = await read(newestIds.flatMap((id) => (id === undefined ? [] : [id])));
      const createdAt = new Map(newest.flatMap((s) => (s ? [[s.id, s.createdAt] as const] : [])));
      return new Map(
        accountIds.map((id, i) => {
          const newestId = newestIds[i];
          return [
            id,
            {
              count: indexes.count(listKey.account(id)),
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
      const keys = new Set(accountIds.map(listKey.account));
      return entries(walk(keys, page));
    },
    async listPublicEntries(page, filter) {
      const keys = origins(filter).map(listKey.public);
      return entries(walk(keys, page, publicPredicate(filter)));
    },
    async listTagEntries(tag, page, filter) {
      const keys = origins(filter).map((origin) => listKey.tag(origin, tag));
      return entries(walk(keys, page, publicPredicate(filter)));
    },
    listReplies(statusId) {
      return load(indexes.list(listKey.replies(statusId))?.ascending() ?? []);
    },
    async countReplies(statusId) {
      return indexes.count(listKey.replies(statusId));
    },
    async findReblog(accountId, statusId) {
      const id = indexes.findReblog(accountId, statusId);
      return id === undefined ? undefined : records.get(id);
    },
    listReblogs(statusId, page) {
      return load(indexes.list(listKey.reblogs(statusId))?.page(page) ?? []);
    },
    async countReblogs(statusId) {
      return indexes.count(listKey.reblogs(statusId));
    },
    async interactionCounts(statusIds) {
      return new Map(
        statusIds.map((id) => [
          id,
          {
            replies: indexes.count(listKey.replies(id)),
            reblogs: indexes.count(listKey.reblogs(id)),
          },
        ]),
      );
    },
    async findReblogs(accountId, statusIds) {
      const reblogIds = statusIds.flatMap((id) => {
        const reblogId = indexes.findReblog(accountId, id);
        return reblogId === undefined ? [] : [[id, reblogId] as const];
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
      return load(indexes.list(listKey.deleted())?.page(page) ?? []);
    },
    listRemote(page) {
      return load(indexes.list(listKey.remote())?.page(page) ?? []);
    },
    delete(id) {
      return records.remove(id);
    },
  };
}
