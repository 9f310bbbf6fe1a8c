// OAuth applications: table `oauth_apps` (migration 0001), found by id and by client id.

import type { OAuthApp } from "../../domain/oauth.ts";
import type { AppStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { createRecordMemo } from "./record-memo.ts";
import { byId, firstData, isRowId, rowIds } from "./rows.ts";

type Row = { data: OAuthApp };

export function createAppStore(db: PgContext): AppStore {
  const { sql } = db;
  // Every signed-in request and every status posted through an app reads it (record-memo.ts).
  const memo = createRecordMemo<OAuthApp>(db.changes, "oauth_apps");
  return {
    async get(id) {
      if (!isRowId(id)) return undefined;
      return memo.get(id, async () =>
        firstData(await sql<Row[]>`select data from oauth_apps where id = ${id}`),
      );
    },
    async getMany(ids) {
      const wanted = rowIds(ids);
      if (wanted.length === 0) return new Map();
      return memo.getMany(wanted, async (missing) =>
        byId(await sql<Row[]>`select data from oauth_apps where id = any(${missing}::bigint[])`),
      );
    },
    async findByClientId(clientId) {
      return firstData(
        await sql<Row[]>`
          select data from oauth_apps where client_id = ${clientId} order by id desc limit 1`,
      );
    },
    async put(app) {
      await sql`
        insert into oauth_apps (id, client_id, data)
        values (${app.id}, ${app.clientId}, ${jsonb(sql, app)})
        on conflict (id) do update set client_id = excluded.client_id, data = excluded.data`;
      db.changes.bump("oauth_apps");
    },
  };
}
