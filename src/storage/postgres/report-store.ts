// Reports: table `reports` (migration 0004), listed newest first by id and found by their Flag
// activity id. The record is the jsonb `data`; reports stored before the later fields existed
// are read whole by `reportOf`, and an open one is one without `actionTakenAt` (absent or null).

import { reportOf, type StoredReport } from "../../domain/report.ts";
import type { ReportStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { idWindow } from "./id-window.ts";
import { jsonb } from "./jsonb.ts";
import { firstData, isRowId } from "./rows.ts";

type Row = { data: StoredReport };

export function createReportStore(db: PgContext): ReportStore {
  const { sql } = db;
  return {
    async get(id) {
      if (!isRowId(id)) return undefined;
      const found = firstData(await sql<Row[]>`select data from reports where id = ${id}`);
      return found && reportOf(found);
    },
    async findByUri(uri) {
      // A redelivered Flag is stored once by the service; should two share a uri, the newest wins.
      const found = firstData(
        await sql<Row[]>`select data from reports where uri = ${uri} order by id desc limit 1`,
      );
      return found && reportOf(found);
    },
    async list(page, filter) {
      const window = idWindow(sql, page);
      if (!window) return [];
      const state =
        filter === undefined
          ? sql``
          : filter.resolved
            ? sql`and (data->>'actionTakenAt') is not null`
            : sql`and (data->>'actionTakenAt') is null`;
      const rows = await sql<Row[]>`
        select data from reports where true ${window.where} ${state}
        order by id ${window.direction} limit ${window.limit}`;
      const reports = rows.map((row) => reportOf(row.data));
      // min_id walks up from its bound; the answer is newest first either way.
      return page.minId !== undefined ? reports.reverse() : reports;
    },
    async put(report) {
      await sql`
        insert into reports (id, uri, data)
        values (${report.id}, ${report.uri}, ${jsonb(sql, report)})
        on conflict (id) do update set uri = excluded.uri, data = excluded.data`;
      db.changes.bump("reports");
    },
  };
}
