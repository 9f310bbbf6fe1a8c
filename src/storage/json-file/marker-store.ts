// Read markers: `markers/<account_id>-<timeline>.json`, one per account and timeline.

import type { Marker, MarkerTimeline } from "../../domain/marker.ts";
import type { MarkerStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";

const keyOf = (accountId: string, timeline: MarkerTimeline) => `${accountId}-${timeline}`;

export async function openMarkerStore(root: string, writer: DurableWriter): Promise<MarkerStore> {
  const records = await RecordCollection.load<Marker>(
    root,
    {
      folder: "markers",
      depth: 0,
      keyOf: (m) => keyOf(m.accountId, m.timeline),
      fileOf: (m) => `${keyOf(m.accountId, m.timeline)}.json`,
    },
    writer,
  );

  return {
    async get(accountId, timeline) {
      return records.get(keyOf(accountId, timeline));
    },
    async put(marker) {
      await records.put(marker);
    },
  };
}
