// Media attachments: `media-attachments/<media_id>.json`, one file each. The folder is not the
// served `media/` directory, so records are never reachable as files over HTTP. In memory: the
// unattached attachments ordered by creation time then id, so the cleanup job reads the oldest
// without scanning every attachment.

import { compareIds } from "../../domain/ids.ts";
import type { MediaAttachment } from "../../domain/media.ts";
import type { MediaStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedList } from "./sorted-list.ts";

interface Entry {
  /** Milliseconds, so differently written ISO times still order correctly. */
  at: number;
  id: string;
}

const byTime = (a: Entry, b: Entry) => a.at - b.at || compareIds(a.id, b.id);

/** An unreadable time sorts first: such an upload is old enough to clean up, not kept forever. */
const millis = (iso: string) => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
};

export async function openMediaStore(root: string, writer: DurableWriter): Promise<MediaStore> {
  const unattached = new SortedList<Entry>(byTime);
  const entryOf = (media: MediaAttachment): Entry => ({
    at: millis(media.createdAt),
    id: media.id,
  });
  const records = await RecordCollection.load<MediaAttachment>(
    root,
    {
      folder: "media-attachments",
      depth: 0,
      keyOf: (m) => m.id,
      fileOf: (m) => `${m.id}.json`,
      onChange(previous, next) {
        if (previous && previous.statusId === null) unattached.delete(entryOf(previous));
        if (next && next.statusId === null) unattached.add(entryOf(next));
      },
    },
    writer,
  );

  return {
    async get(id) {
      return records.get(id);
    },
    async getMany(ids) {
      return records.getMany(ids);
    },
    async put(media) {
      await records.put(media);
    },
    delete(id) {
      return records.remove(id);
    },
    async listUnattachedBefore(before, limit) {
      const cutoff = Date.parse(before);
      if (Number.isNaN(cutoff) || limit <= 0) return [];
      const end = unattached.partition((e) => e.at < cutoff);
      return unattached
        .view()
        .slice(0, Math.min(end, limit))
        .flatMap((e) => records.get(e.id) ?? []);
    },
  };
}
