// Media attachments: table `media_attachments` (migration 0004). The unattached ones are indexed
// by creation time then id, so the cleanup job reads the oldest without scanning the rest.

import type { MediaAttachment } from "../../domain/media.ts";
import type { MediaStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { byId, firstData, isRowId, rowIds } from "./rows.ts";

type Row = { data: MediaAttachment };

/** Milliseconds, so differently written ISO times compare as instants. */
const millis = (iso: string) => Date.parse(iso);

export function createMediaStore(db: PgContext): MediaStore {
  const { sql } = db;
  return {
    async get(id) {
      if (!isRowId(id)) return undefined;
      return firstData(await sql<Row[]>`select data from media_attachments where id = ${id}`);
    },
    async getMany(ids) {
      const wanted = rowIds(ids);
      if (wanted.length === 0) return new Map();
      return byId(
        await sql<Row[]>`select data from media_attachments where id = any(${wanted}::bigint[])`,
      );
    },
    async put(media) {
      // An unreadable time counts as the oldest: such an upload is cleaned up, not kept forever.
      const createdMs = millis(media.createdAt);
      await sql`
        insert into media_attachments (id, status_id, created_ms, data)
        values (
          ${media.id}, ${media.statusId}, ${Number.isNaN(createdMs) ? 0 : createdMs},
          ${jsonb(sql, media)}
        )
        on conflict (id) do update set
          status_id = excluded.status_id,
          created_ms = excluded.created_ms,
          data = excluded.data`;
      db.changes.bump("media_attachments");
    },
    async delete(id) {
      if (!isRowId(id)) return false;
      const result = await sql`delete from media_attachments where id = ${id}`;
      if (result.count === 0) return false;
      db.changes.bump("media_attachments");
      return true;
    },
    async listUnattachedBefore(before, limit) {
      const cutoff = millis(before);
      if (Number.isNaN(cutoff) || limit <= 0) return [];
      const rows = await sql<Row[]>`
        select data from media_attachments
        where status_id is null and created_ms < ${cutoff}
        order by created_ms, id limit ${limit}`;
      return rows.map((row) => row.data);
    },
  };
}
