// Everything a test server keeps at rest, as text: each file of its data directory and, on
// PostgreSQL, each row of each table of its database. For tests that look for secrets stored in
// clear, on whichever backend the server runs.

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { connectPostgres } from "../../src/storage/postgres/connect.ts";
import type { TestServer } from "./server.ts";

export interface StoredText {
  /** A file path, or `table <name>` for a database row. */
  where: string;
  text: string;
}

export async function storedTexts(server: TestServer): Promise<StoredText[]> {
  const texts: StoredText[] = [];
  const entries = await readdir(server.dataDir, { withFileTypes: true, recursive: true });
  for (const entry of entries.filter((e) => e.isFile())) {
    const file = join(entry.parentPath, entry.name);
    texts.push({ where: file, text: await readFile(file, "latin1") });
  }
  const { databaseUrl } = server.config;
  if (server.config.storage === "postgres" && databaseUrl !== undefined) {
    const sql = connectPostgres({ url: databaseUrl, poolMax: 1 });
    try {
      const tables = await sql<{ tablename: string }[]>`
        select tablename from pg_tables where schemaname = 'public'`;
      for (const { tablename } of tables) {
        // A whole row as text (every column, the jsonb record included).
        const rows = await sql<{ row: string }[]>`select t::text as row from ${sql(tablename)} t`;
        for (const { row } of rows) texts.push({ where: `table ${tablename}`, text: row });
      }
    } finally {
      await sql.end();
    }
  }
  return texts;
}
