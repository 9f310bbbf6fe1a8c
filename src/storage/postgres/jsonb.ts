// A JSON value as a jsonb query parameter. Sent as text and cast: a parameter the server types
// as jsonb goes through the client's JSON.stringify, which would encode a string twice and send
// JSON null as SQL NULL.

import type postgres from "postgres";
import type { Sql } from "./connect.ts";

export function jsonb(sql: Sql, value: unknown): postgres.Fragment {
  return sql`${JSON.stringify(value)}::text::jsonb`;
}
