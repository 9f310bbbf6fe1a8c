// Emoji reactions to announcements: table `announcement_reactions` (migration 0004), listed per
// announcement in id order (the order they were given). The table's unique (announcement,
// account, name) keeps one reaction per triple across processes: a second one is not stored.

import type { AnnouncementReaction } from "../../domain/announcement.ts";
import type { AnnouncementReactionStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { isRowId } from "./rows.ts";

type Row = { data: AnnouncementReaction };

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = "23505";

export function createAnnouncementReactionStore(db: PgContext): AnnouncementReactionStore {
  const { sql } = db;
  return {
    async put(reaction) {
      const { id, announcementId, accountId, name } = reaction;
      // A new reaction: stored unless its id or its triple is taken.
      const inserted = await sql`
        insert into announcement_reactions (id, announcement_id, account_id, name, data)
        values (${id}, ${announcementId}, ${accountId}, ${name}, ${jsonb(sql, reaction)})
        on conflict do nothing`;
      if (inserted.count === 0) {
        // The id exists: replace that record, unless another one holds the triple (json-file
        // keeps the existing reaction then). A concurrent put may take the triple meanwhile;
        // the unique index refuses the update, which means the same: keep theirs.
        try {
          const updated = await sql`
            update announcement_reactions set
              announcement_id = ${announcementId}, account_id = ${accountId}, name = ${name},
              data = ${jsonb(sql, reaction)}
            where id = ${id} and not exists (
              select 1 from announcement_reactions
              where announcement_id = ${announcementId} and account_id = ${accountId}
                and name = ${name} and id <> ${id}
            )`;
          if (updated.count === 0) return;
        } catch (error) {
          if ((error as { code?: string }).code === UNIQUE_VIOLATION) return;
          throw error;
        }
      }
      db.changes.bump("announcement_reactions");
    },
    async delete(announcementId, accountId, name) {
      if (!isRowId(announcementId) || !isRowId(accountId)) return false;
      const result = await sql`
        delete from announcement_reactions
        where announcement_id = ${announcementId} and account_id = ${accountId} and name = ${name}`;
      if (result.count === 0) return false;
      db.changes.bump("announcement_reactions");
      return true;
    },
    async listByAnnouncement(announcementId) {
      if (!isRowId(announcementId)) return [];
      const rows = await sql<Row[]>`
        select data from announcement_reactions where announcement_id = ${announcementId}
        order by id`;
      return rows.map((row) => row.data);
    },
    async deleteByAnnouncement(announcementId) {
      if (!isRowId(announcementId)) return;
      const result = await sql`
        delete from announcement_reactions where announcement_id = ${announcementId}`;
      if (result.count > 0) db.changes.bump("announcement_reactions");
    },
  };
}
