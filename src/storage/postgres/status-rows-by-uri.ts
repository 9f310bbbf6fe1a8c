// StatusStore.findByUri's read on PostgreSQL: the uris asked while one read is under way looked
// for together in the next statement (gathered-statements.ts, ADR 0073). Every inbox post is
// looked for by its uri before it is ingested, each look a statement of its own until then. Each
// answer is as fresh as its statement, which is sent at or after the ask: nothing committed
// before the ask is missed.

import type { Sql } from "./connect.ts";
import { gathered } from "./gathered-statements.ts";
import type { JsonRow } from "./record-identities.ts";

/** The most uris one statement looks for (they travel as one array). */
const MOST_URIS = 500;

/** The stored row of the status under each uri asked for (one at most: migration 0057). */
export function statusRowsByUri(sql: Sql): (uri: string) => Promise<JsonRow | undefined> {
  const read = gathered<string, JsonRow | undefined>(
    async (_group, uris) => {
      const rows = await sql<(JsonRow & { n: number })[]>`
        select i.n::int as n, s.key, s.json
        from unnest(${uris}::text[]) with ordinality as i(uri, n)
        cross join lateral (
          select id::text as key, data::text as json from statuses
          where uri = i.uri limit 1
        ) as s`;
      const found = new Map(rows.map((row) => [row.n, { key: row.key, json: row.json }]));
      return uris.map((_, i) => found.get(i + 1));
    },
    { most: MOST_URIS },
  );
  return (uri) => read("uri", uri);
}
