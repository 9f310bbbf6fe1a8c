// Reports: `reports/<report_id>.json`. Few arrive, so the id list and the uri index live in
// memory and are rebuilt from the files at start-up.

import type { Report } from "../../domain/report.ts";
import type { ReportStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedIds } from "./sorted-ids.ts";

export async function openReportStore(root: string, writer: DurableWriter): Promise<ReportStore> {
  const all = new SortedIds();
  const byUri = new Map<string, string>();
  const records = await RecordCollection.load<Report>(
    root,
    {
      folder: "reports",
      depth: 0,
      keyOf: (r) => r.id,
      fileOf: (r) => `${r.id}.json`,
      onChange(previous, next) {
        if (previous) {
          all.delete(previous.id);
          if (previous.uri !== null) byUri.delete(previous.uri);
        }
        if (next) {
          all.add(next.id);
          if (next.uri !== null) byUri.set(next.uri, next.id);
        }
      },
    },
    writer,
  );

  return {
    async get(id) {
      return records.get(id);
    },
    async findByUri(uri) {
      const id = byUri.get(uri);
      return id === undefined ? undefined : records.get(id);
    },
    async list(page) {
      return all.page(page).flatMap((id) => records.get(id) ?? []);
    },
    async put(report) {
      await records.put(report);
    },
  };
}
