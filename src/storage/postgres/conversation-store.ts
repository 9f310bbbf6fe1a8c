// Direct-message conversations on PostgreSQL (migration 0003): one row per account and thread,
// listed by their last status (ties by id) and paged by it, so a new message in a thread moves
// its entry to the top.

import type { Conversation } from "../../domain/conversation.ts";
import type { ConversationStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { idWindow, newestFirst } from "./id-window.ts";
import { jsonb } from "./jsonb.ts";
import { rowId } from "./rows.ts";

interface DataRow {
  data: Conversation;
}

export function createConversationStore(db: PgContext): ConversationStore {
  const { sql } = db;
  return {
    async get(id) {
      const key = rowId(id);
      if (key === undefined) return undefined;
      const [row] = await sql<DataRow[]>`select data from conversations where id = ${key}::int8`;
      return row?.data;
    },

    async find(accountId, conversationId) {
      const key = rowId(accountId);
      if (key === undefined) return undefined;
      const [row] = await sql<DataRow[]>`
        select data from conversations
        where account_id = ${key}::int8 and conversation_id = ${conversationId}
        order by id desc limit 1`;
      return row?.data;
    },

    async put(c) {
      await sql`
        insert into conversations (id, account_id, conversation_id, last_status_id, data)
        values (${c.id}::int8, ${c.accountId}::int8, ${c.conversationId},
          ${c.lastStatusId}::int8, ${jsonb(sql, c)})
        on conflict (id) do update set
          account_id = excluded.account_id, conversation_id = excluded.conversation_id,
          last_status_id = excluded.last_status_id, data = excluded.data`;
      db.changes.bump("conversations");
    },

    async delete(id) {
      const key = rowId(id);
      if (key === undefined) return false;
      const { count } = await sql`delete from conversations where id = ${key}::int8`;
      if (count === 0) return false;
      db.changes.bump("conversations");
      return true;
    },

    async listFor(accountId, page) {
      const key = rowId(accountId);
      const window = idWindow(sql, page, "last_status_id");
      if (key === undefined || window === undefined) return [];
      const rows = await sql<DataRow[]>`
        select data from conversations
        where account_id = ${key}::int8 ${window.where}
        order by last_status_id ${window.direction}, id ${window.direction}
        limit ${window.limit}`;
      return newestFirst(rows, page).map((r) => r.data);
    },
  };
}
