// Statuses by uri on a real PostgreSQL (status-rows-by-uri.ts): the looks asked while one is under
// way go in one statement, each answered with its own status, or none.

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { statusRowsByUri } from "./status-rows-by-uri.ts";
import { countedStatements } from "./testing/counted-statements.ts";
import { rawDatabase } from "./testing/hooks.ts";

describe("postgres statuses by uri", () => {
  const db = rawDatabase(2);

  it("reads the uris asked while one read is under way in one statement", async () => {
    for (const [id, uri] of [
      [1, "https://remote.example/notes/1"],
      [3, "https://remote.example/notes/2"],
    ] as const) {
      await db.sql`
        insert into statuses (id, account_id, uri, visibility, local, deleted, has_media, tags, data)
        values (${id}, 1, ${uri}, 'public', false, false, false, '{}',
                ${JSON.stringify({ id: String(id), uri })}::text::jsonb)`;
    }
    const reads = countedStatements(db.sql, "from statuses");
    const byUri = statusRowsByUri(reads.sql);
    const asked = Array.from({ length: 12 }, (_, i) => `https://remote.example/notes/${i % 4}`);
    const rows = await Promise.all(asked.map(byUri));
    assert.deepEqual(
      rows.map((row) => row?.key),
      asked.map((uri) => ({ 1: "1", 2: "3" })[uri.slice(-1)]),
    );
    assert.equal(JSON.parse(rows[1]?.json ?? "{}").uri, "https://remote.example/notes/1");
    // The first alone, the eleven asked while it ran together.
    assert.equal(reads.count(), 2);
  });
});
