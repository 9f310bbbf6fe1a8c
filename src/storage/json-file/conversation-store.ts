// Direct-message conversations: `conversations/<account_id>/<id>.json`, one per account and
// thread. In memory: the entry of each (account, thread) pair, and each account's entries
// ordered by their last status, which orders and pages the list (a new message in a thread
// moves its entry to the top).

import type { Conversation } from "../../domain/conversation.ts";
import { compareIds } from "../../domain/ids.ts";
import type { ConversationStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { UniqueIndex } from "./indexes.ts";
import { RecordCollection } from "./record-collection.ts";
import { pageByKey, SortedList } from "./sorted-list.ts";

interface Entry {
  lastStatusId: string;
  id: string;
}

const threadKey = (accountId: string, conversationId: string) => `${accountId} ${conversationId}`;
const byLastStatus = (a: Entry, b: Entry) =>
  compareIds(a.lastStatusId, b.lastStatusId) || compareIds(a.id, b.id);
const entryOf = (c: Conversation): Entry => ({ lastStatusId: c.lastStatusId, id: c.id });

export async function openConversationStore(
  root: string,
  writer: DurableWriter,
): Promise<ConversationStore> {
  const byThread = new UniqueIndex();
  const lists = new Map<string, SortedList<Entry>>();
  const records = await RecordCollection.load<Conversation>(
    root,
    {
      folder: "conversations",
      depth: 1,
      keyOf: (c) => c.id,
      fileOf: (c) => `${c.accountId}/${c.id}.json`,
      onChange(previous, next) {
        if (previous) {
          byThread.delete(threadKey(previous.accountId, previous.conversationId), previous.id);
          const list = lists.get(previous.accountId);
          list?.delete(entryOf(previous));
          if (list?.size === 0) lists.delete(previous.accountId);
        }
        if (next) {
          byThread.set(threadKey(next.accountId, next.conversationId), next.id);
          let list = lists.get(next.accountId);
          if (!list) {
            list = new SortedList(byLastStatus);
            lists.set(next.accountId, list);
          }
          list.add(entryOf(next));
        }
      },
    },
    writer,
  );

  return {
    async get(id) {
      return records.get(id);
    },
    async find(accountId, conversationId) {
      const id = byThread.get(threadKey(accountId, conversationId));
      return id === undefined ? undefined : records.get(id);
    },
    async put(conversation) {
      await records.put(conversation);
    },
    delete(id) {
      return records.remove(id);
    },
    async listFor(accountId, page) {
      const list = lists.get(accountId);
      if (!list) return [];
      const entries = pageByKey(list, (e) => e.lastStatusId, compareIds, page);
      return entries.flatMap((e) => records.get(e.id) ?? []);
    },
  };
}
