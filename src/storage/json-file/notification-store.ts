// Notifications: `notifications/<recipient_id>/<notification_id>.json`, so one account's
// notifications sit together. In memory: each recipient's ids in order (serving the newest-first
// pages and the unread counts), the ids about each status (removed with it), and the ids of
// each exact (recipient, type, from, status) kind, which find() answers.

import { compareIds } from "../../domain/ids.ts";
import type { Notification, NotificationType } from "../../domain/notification.ts";
import type { IdPage, NotificationFilter, NotificationStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { mergePage } from "./id-merge.ts";
import { GroupIndex } from "./indexes.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedGroups } from "./sorted-ids.ts";

const kindKey = (
  accountId: string,
  type: NotificationType,
  fromAccountId: string,
  statusId: string | null,
) => JSON.stringify([accountId, type, fromAccountId, statusId]);
const kindOf = (n: Notification) => kindKey(n.accountId, n.type, n.fromAccountId, n.statusId);

/** undefined when the filter lets everything through (the walk can skip the lookups). */
function filterPredicate(
  filter: NotificationFilter = {},
): ((n: Notification) => boolean) | undefined {
  const tests: ((n: Notification) => boolean)[] = [];
  if (filter.types !== undefined && filter.types.length > 0) {
    const types = new Set(filter.types);
    tests.push((n) => types.has(n.type));
  }
  if (filter.excludeTypes !== undefined && filter.excludeTypes.length > 0) {
    const excluded = new Set(filter.excludeTypes);
    tests.push((n) => !excluded.has(n.type));
  }
  const from = filter.fromAccountId;
  if (from !== undefined) tests.push((n) => n.fromAccountId === from);
  const filtered = filter.filtered;
  if (filtered !== undefined) tests.push((n) => (n.filtered === true) === filtered);
  if (tests.length === 0) return undefined;
  return (n) => tests.every((test) => test(n));
}

export async function openNotificationStore(
  root: string,
  writer: DurableWriter,
): Promise<NotificationStore> {
  const byRecipient = new SortedGroups();
  const byStatus = new GroupIndex();
  const byKind = new GroupIndex();
  const records = await RecordCollection.load<Notification>(
    root,
    {
      folder: "notifications",
      depth: 1,
      keyOf: (n) => n.id,
      fileOf: (n) => `${n.accountId}/${n.id}.json`,
      onChange(previous, next) {
        if (previous) {
          byRecipient.delete(previous.accountId, previous.id);
          if (previous.statusId !== null) byStatus.delete(previous.statusId, previous.id);
          byKind.delete(kindOf(previous), previous.id);
        }
        if (next) {
          byRecipient.add(next.accountId, next.id);
          if (next.statusId !== null) byStatus.add(next.statusId, next.id);
          byKind.add(kindOf(next), next.id);
        }
      },
    },
    writer,
  );

  /** The recipient's ids in the window that pass the filter, newest first. */
  const walk = (accountId: string, page: IdPage, filter?: NotificationFilter) => {
    const list = byRecipient.get(accountId);
    if (!list) return [];
    const test = filterPredicate(filter);
    return mergePage([list], page, test && ((id) => test(records.peek(id) as Notification)));
  };
  const removeAll = async (ids: Iterable<string>) => {
    await Promise.all([...ids].map((id) => records.remove(id)));
  };

  return {
    async get(id) {
      return records.get(id);
    },
    async put(notification) {
      await records.put(notification);
    },
    delete(id) {
      return records.remove(id);
    },
    async listFor(accountId, page, filter) {
      return walk(accountId, page, filter).flatMap((id) => records.get(id) ?? []);
    },
    async find(accountId, type, fromAccountId, statusId) {
      const ids = [...byKind.get(kindKey(accountId, type, fromAccountId, statusId))];
      // Normally one; should duplicates exist, the newest answers.
      const newest = ids.sort(compareIds).at(-1);
      return newest === undefined ? undefined : records.get(newest);
    },
    async countFor(accountId, { sinceId, limit, filter }) {
      return walk(accountId, { limit, sinceId }, filter).length;
    },
    async clear(accountId) {
      await removeAll(byRecipient.get(accountId)?.ascending() ?? []);
    },
    async deleteByStatus(statusId) {
      await removeAll(byStatus.get(statusId));
    },
    async findStatusIds(statusIds) {
      return new Set(statusIds.filter((id) => byStatus.get(id).size > 0));
    },
  };
}
