// The `data jsonb` column every record table has: the whole domain record as json-file stores it
// (JSON.stringify of it), read back as `row.data`, a fresh object per read that aliases nothing.
// jsonb cannot hold the character U+0000 (PostgreSQL refuses "\u0000"), which remote text can
// carry; it is stored as U+FFFD, the replacement character, so such a status is kept rather than
// refused on every retry of its delivery.

import type postgres from "postgres";
import type { Sql } from "./connect.ts";

/** The record as a jsonb parameter (`${recordData(sql, record)}`). */
export function recordData(sql: Sql, record: object): postgres.Fragment {
  let json = JSON.stringify(record);
  // Rare (and a literal "\u0000" typed as text also lands here, harmlessly): only then pay for
  // a replacer over every value.
  if (json.includes("\\u0000")) {
    json = JSON.stringify(record, (_key, value: unknown) =>
      typeof value === "string" ? value.replaceAll("\u0000", "\uFFFD") : value,
    );
  }
  // Sent as text and cast: a parameter typed jsonb would be JSON.stringify'd a second time.
  return sql`${json}::text::jsonb`;
}
