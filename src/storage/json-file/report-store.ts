// Reports: `reports/<report_id>.json`. Few exist, so the id lists (all, open, resolved) and the
// uri index live in memory and are rebuilt from the files at start-up. Files written before
// the later fields existed are read whole by `reportOf`.

import { isResolved, type Report, reportOf, type StoredReport } from "../../domain/report.ts";
import type { ReportStore } from "../ports.ts";
import type { DurableWriter } from "./durable-writer.ts";
import { RecordCollection } from "./record-collection.ts";
import { SortedIds } from "./sorted-ids.ts";

export async function openReportStore(root: string, writer: DurableWriter): Promise<ReportStore> {
  const all = new SortedIds();
  const open = new SortedIds();
  const resolved = new SortedIds();
  const byUri = new Map<string, string>();
  const records = await RecordCollection.load<StoredReport>(
    root,
    {
      folder: "reports",
      depth: 0,
      keyOf: (r) => r.id,
      fileOf: (r) => `${r.id}.json`,
      onChange(previous, next) {
        if (previous) {
          all.delete(previous.id);
          open.delete(previous.id);
          resolved.delete(previous.id);
          if (previous.uri !== null) byUri.delete(previous.uri);
        }
        if (next) {
          all.add(next.id);
          (isResolved(reportOf(next)) ? resolved : open).add(next.id);
          if (next.uri !== null) byUri.set(next.uri, next.id);
        }
      },
    },
    writer,
  );

  const read = (id: string): Report | undefined => {
    const stored = records.get(id);
    return stored === undefined ? undefined : reportOf(stored);
  };

  return {
    async get(id) {
      return read(id);
    },
    async findByUri(uri) {
      const id = byUri.get(uri);
      return id === undefined ? undefined : read(id);
    },
    async list(page, filter) {
      const ids = filter === undefined ? all : filter.resolved ? resolved : open;
      return ids.page(page).flatMap((id) => read(id) ?? []);
    },
    async put(report) {
      await records.put(report);
    },
  };
}
