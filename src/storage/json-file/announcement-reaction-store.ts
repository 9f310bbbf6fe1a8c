// Emoji reactions to announcements: `announcement-reactions/<reaction_id>.json`, indexed by
// announcement (in id order, which is the order they were given) and by (announcement, account,
// name), of which there is at most one. Changes of one triple run one at a time, so two
// concurrent identical reactions store one record.

import type { AnnouncementReaction } from "../../domain/announcement.ts";
import type { AnnouncementReactionStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { UniqueIndex } from "./indexes.ts";
import { KeyedQueue } from "./keyed-queue.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedGroups } from "./sorted-ids.ts";

/** JSON keeps the parts apart whatever characters a reaction name holds. */
const tripleKey = (announcementId: string, accountId: string, name: string) =>
  JSON.stringify([announcementId, accountId, name]);
const keyOfReaction = (r: AnnouncementReaction) => tripleKey(r.announcementId, r.accountId, r.name);

export async function openAnnouncementReactionStore(
  root: string,
  writer: DurableWriter,
): Promise<AnnouncementReactionStore> {
  const byTriple = new UniqueIndex();
  const byAnnouncement = new SortedGroups();
  const queue = new KeyedQueue();
  const records = await RecordCollection.load<AnnouncementReaction>(
    root,
    {
      folder: "announcement-reactions",
      depth: 0,
      keyOf: (r) => r.id,
      fileOf: (r) => `${r.id}.json`,
      onChange(previous, next) {
        if (previous) {
          byTriple.delete(keyOfReaction(previous), previous.id);
          byAnnouncement.delete(previous.announcementId, previous.id);
        }
        if (next) {
          byTriple.set(keyOfReaction(next), next.id);
          byAnnouncement.add(next.announcementId, next.id);
        }
      },
    },
    writer,
  );

  const removeByTriple = (key: string) =>
    queue.run(key, async () => {
      const id = byTriple.get(key);
      return id === undefined ? false : records.remove(id);
    });

  return {
    put(reaction) {
      const key = keyOfReaction(reaction);
      return queue.run(key, async () => {
        const existing = byTriple.get(key);
        if (existing !== undefined && existing !== reaction.id) return;
        await records.put(reaction);
      });
    },
    delete(announcementId, accountId, name) {
      return removeByTriple(tripleKey(announcementId, accountId, name));
    },
    async listByAnnouncement(announcementId) {
      const ids = byAnnouncement.get(announcementId)?.ascending() ?? [];
      return ids.flatMap((id) => records.get(id) ?? []);
    },
    async deleteByAnnouncement(announcementId) {
      const ids = byAnnouncement.get(announcementId)?.ascending() ?? [];
      const keys = ids.map((id) => keyOfReaction(records.peek(id) as AnnouncementReaction));
      await Promise.all(keys.map(removeByTriple));
    },
  };
}
