// OAuth authorization codes: table `authorization_codes` (migration 0001), removed when taken.

import type { AuthorizationCode } from "../../domain/oauth.ts";
import type { AuthorizationCodeStore } from "../ports.ts";
import type { PgContext } from "./context.ts";
import { jsonb } from "./jsonb.ts";
import { firstData } from "./rows.ts";

type Row = { data: AuthorizationCode };

export function createAuthorizationCodeStore(db: PgContext): AuthorizationCodeStore {
  const { sql } = db;
  return {
    async put(code) {
      await sql`
        insert into authorization_codes (code_hash, data)
        values (${code.codeHash}, ${jsonb(sql, code)})
        on conflict (code_hash) do update set data = excluded.data`;
      db.changes.bump("authorization_codes");
    },
    async take(codeHash) {
      // One statement deletes and returns the row: of several takers in any processes, the
      // first to delete gets the code and the others find nothing to delete.
      const rows = await sql<Row[]>`
        delete from authorization_codes where code_hash = ${codeHash} returning data`;
      if (rows.length > 0) db.changes.bump("authorization_codes");
      return firstData(rows);
    },
  };
}
