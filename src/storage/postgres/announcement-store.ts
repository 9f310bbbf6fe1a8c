// Announcements: table `announcements` (migration 0004). An instance has a handful, listed whole.

import type { Announcement } from "../../domain/announcement.ts";
import type { AnnouncementStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { firstData, isRowId } from "./rows.ts";

type Row = { data: Announcement };

export function createAnnouncementStore(db: PgContext): AnnouncementStore {
  const { sql } = db;
  return {
    async get(id) {
      if (!isRowId(id)) return undefined;
      return firstData(await sql<Row[]>`select data from announcements where id = ${id}`);
    },
    async list() {
      const rows = await sql<Row[]>`select data from announcements order by id desc`;
      return rows.map((row) => row.data);
    },
    async put(announcement) {
      await sql`
        insert into announcements (id, data)
        values (${announcement.id}, ${jsonb(sql, announcement)})
        on conflict (id) do update set data = excluded.data`;
      db.changes.bump("announcements");
    },
    async delete(id) {
      if (!isRowId(id)) return false;
      const result = await sql`delete from announcements where id = ${id}`;
      if (result.count === 0) return false;
      db.changes.bump("announcements");
      return true;
    },
  };
}
