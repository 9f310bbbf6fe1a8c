// Polls: `polls/<poll_id>.json`, one file each; looked up only by id.

import type { Poll } from "../../domain/poll.ts";
import type { PollStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";

export async function openPollStore(root: string, writer: DurableWriter): Promise<PollStore> {
  const records = await RecordCollection.load<Poll>(
    root,
    { folder: "polls", depth: 0, keyOf: (p) => p.id, fileOf: (p) => `${p.id}.json` },
    writer,
  );

  return {
    async get(id) {
      return records.get(id);
    },
    async getMany(ids) {
      const found = new Map<string, Poll>();
      for (const id of ids) {
        const poll = records.get(id);
        if (poll) found.set(id, poll);
      }
      return found;
    },
    async put(poll) {
      await records.put(poll);
    },
    delete(id) {
      return records.remove(id);
    },
    async listIds() {
      return [...records.values()].map((p) => p.id);
    },
  };
}
