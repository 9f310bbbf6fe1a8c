// The `data jsonb` column every record table has: the whole domain record as json-file stores it
// (JSON.stringify of it), read back as `row.data`, a fresh object per read that aliases nothing.

import type postgres from "postgres";
import type { Sql } from "./connect.ts";

/** The record as a jsonb parameter. Domain records are plain JSON data without index types. */
export function recordData(sql: Sql, record: object): postgres.Parameter {
  return sql.json(record as unknown as postgres.JSONValue);
}
