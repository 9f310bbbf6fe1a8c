// Announcements: `announcements/<announcement_id>.json`. An instance has a handful, so the list
// is kept as sorted ids and read whole.

import type { Announcement } from "../../domain/announcement.ts";
import type { AnnouncementStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedIds } from "./sorted-ids.ts";

export async function openAnnouncementStore(
  root: string,
  writer: DurableWriter,
): Promise<AnnouncementStore> {
  const all = new SortedIds();
  const records = await RecordCollection.load<Announcement>(
    root,
    {
      folder: "announcements",
      depth: 0,
      keyOf: (a) => a.id,
      fileOf: (a) => `${a.id}.json`,
      onChange(previous, next) {
        if (previous) all.delete(previous.id);
        if (next) all.add(next.id);
      },
    },
    writer,
  );

  return {
    async get(id) {
      return records.get(id);
    },
    async list() {
      return all
        .ascending()
        .reverse()
        .flatMap((id) => records.get(id) ?? []);
    },
    async put(announcement) {
      await records.put(announcement);
    },
    delete(id) {
      return records.remove(id);
    },
  };
}
