// OAuth applications: `apps/<id>.json`, indexed by client id.

import type { OAuthApp } from "../../domain/oauth.ts";
import type { AppStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { UniqueIndex } from "./indexes.ts";
import { RecordCollection } from "./record-collection.ts";

export async function openAppStore(root: string, writer: DurableWriter): Promise<AppStore> {
  const byClientId = new UniqueIndex();
  const records = await RecordCollection.load<OAuthApp>(
    root,
    {
      folder: "apps",
      depth: 0,
      keyOf: (a) => a.id,
      fileOf: (a) => `${a.id}.json`,
      onChange(previous, next) {
        if (previous) byClientId.delete(previous.clientId, previous.id);
        if (next) byClientId.set(next.clientId, next.id);
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
    async findByClientId(clientId) {
      const id = byClientId.get(clientId);
      return id === undefined ? undefined : records.get(id);
    },
    async put(app) {
      await records.put(app);
    },
  };
}
