// A JSON value as a jsonb query parameter. Sent as text and cast: a parameter the server types
// as jsonb goes through the client's JSON.stringify, which would encode a string twice and send
// JSON null as SQL NULL. jsonb cannot hold the character U+0000 (PostgreSQL refuses "\u0000"),
// which remote text can carry: it is stored as U+FFFD, the replacement character, so such a
// record is kept rather than refused on every retry of its delivery.

import type postgres from "postgres";
import type { Sql } from "./connect.ts";

export function jsonb(sql: Sql, value: unknown): postgres.Fragment {
  return sql`${jsonText(value)}::text::jsonb`;
}

/** A JSON value as the text to cast to jsonb (arrays of them go through `unnest`). */
export function jsonText(value: unknown): string {
  const json = JSON.stringify(value);
  // Rare (a literal "\u0000" typed as text lands here too, harmlessly): only then pay for a
  // replacer over every value.
  if (!json.includes("\\u0000")) return json;
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "string" ? v.replaceAll("\u0000", "\uFFFD") : v,
  );
}
