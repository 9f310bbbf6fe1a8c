// Statuses: `statuses/<account_id>/<status_id>.json`, one file each, the `deleted` flag kept in
// the file. In memory: every status by id (deleted ones too, so they can answer 404/410), and the
// sorted id lists of StatusIndexes (per author, public, per hashtag, replies, reblogs), which
// serve every list and count without scanning.

import type { Status, TimelineEntry } from "../../domain/status.ts";
import type { IdPage, PublicFilter, StatusStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { mergePage } from "./id-merge.ts";
import { RecordCollection } from "./record-collection.ts";
import type { SortedIds } from "./sorted-ids.ts";
import { publicPredicate, statusPredicate } from "./status-filter.ts";
import { listKey, type Origin, StatusIndexes } from "./status-indexes.ts";

export async function openStatusStore(root: string, writer: DurableWriter): Promise<StatusStore> {
  const indexes = new StatusIndexes();
  const records = await RecordCollection.load<Status>(
    root,
    {
      folder: "statuses",
      depth: 1,
      keyOf: (s) => s.id,
      fileOf: (s) => `${s.accountId}/${s.id}.json`,
      onChange: (previous, next) => indexes.update(previous, next),
    },
    writer,
  );

  const lists = (keys: Iterable<string>): SortedIds[] => {
    const found: SortedIds[] = [];
    for (const key of keys) {
      const list = indexes.list(key);
      if (list) found.push(list);
    }
    return found;
  };
  /** Walks the lists with a predicate on the stored record (no copies until the page is cut). */
  const walk = (keys: Iterable<string>, page: IdPage, test?: (s: Status) => boolean) =>
    mergePage(lists(keys), page, test && ((id) => test(records.peek(id) as Status)));
  const load = (ids: readonly string[]) => ids.flatMap((id) => records.get(id) ?? []);
  const entries = (ids: readonly string[]): TimelineEntry[] =>
    ids.map((id) => ({ account_id: (records.peek(id) as Status).accountId, status_id: id }));
  const origins = (filter: PublicFilter): Origin[] =>
    filter.origin === "all" ? ["local", "remote"] : [filter.origin];

  return {
    async get(id) {
      return records.get(id);
    },
    async getMany(ids) {
      const found = new Map<string, Status>();
      for (const id of ids) {
        const status = records.get(id);
        if (status) found.set(id, status);
      }
      return found;
    },
    async findByUri(uri) {
      const id = indexes.findByUri(uri);
      return id === undefined ? undefined : records.get(id);
    },
    async put(status) {
      await records.put(status);
    },
    async listByAccount(accountId, page, filter) {
      return load(walk([listKey.account(accountId)], page, statusPredicate(filter)));
    },
    async countByAccount(accountId) {
      return indexes.count(listKey.account(accountId));
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
    async listReplies(statusId) {
      return load(indexes.list(listKey.replies(statusId))?.ascending() ?? []);
    },
    async countReplies(statusId) {
      return indexes.count(listKey.replies(statusId));
    },
    async findReblog(accountId, statusId) {
      const id = indexes.findReblog(accountId, statusId);
      return id === undefined ? undefined : records.get(id);
    },
    async listReblogs(statusId, page) {
      return load(indexes.list(listKey.reblogs(statusId))?.page(page) ?? []);
    },
    async countReblogs(statusId) {
      return indexes.count(listKey.reblogs(statusId));
    },
  };
}
