// Tests only: a throw-away database, migrated, emptied between tests and dropped at the end, on
// the server `npm test`'s global set-up chose (test/postgres-server.ts: the machine's own on
// 127.0.0.1:5432, or an embedded one), which it names in WREN_TEST_POSTGRES_URL (config/).

import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { testPostgresUrl } from "../../../config/test-database.ts";
import { connectPostgres } from "../connect.ts";
import { migrate } from "../migrate.ts";

export const ADMIN_URL = testPostgresUrl();

export interface TempDatabase {
  /** The database's URL, for openPostgresStorage or a spawned server. */
  url: string;
  /** Removes every row of every Wren table (the schema and its migrations stay). */
  empty(): Promise<void>;
  drop(): Promise<void>;
}

function urlOf(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

const PREFIX = "wren_test_";

/** A run's tag goes into its databases' names, so the run can sweep what it left (see below). */
const TAG = /^[a-z0-9]{1,16}$/;

/**
 * Creates and migrates a database with a unique name. With a `tag`, the name starts with
 * `wren_test_<tag>_`, so that `dropTempDatabases(tag)` finds it if its test never dropped it.
 */
export async function createTempDatabase(
  options: { migrated?: boolean; tag?: string } = {},
): Promise<TempDatabase> {
  const tag = options.tag === undefined ? "" : `${checkedTag(options.tag)}_`;
  const name = `${PREFIX}${tag}${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = urlOf(name);
  const sql = connectPostgres({ url, poolMax: 1 });
  try {
    if (options.migrated ?? true) await migrate(sql);
  } finally {
    await sql.end();
  }
  return {
    url,
    async empty() {
      const db = connectPostgres({ url, poolMax: 1 });
      try {
        const tables = await db<{ tablename: string }[]>`
          select tablename from pg_tables
          where schemaname = 'public' and tablename <> 'wren_migrations'`;
        // DELETE rather than TRUNCATE: a test leaves a few rows, and truncating the 30-odd tables
        // (new files for each, their old ones removed at commit) took 100 times as long, seconds
        // on a busy machine, before every test of the storage contract. No table has a foreign
        // key, so the order does not matter; sequences are left as TRUNCATE left them.
        if (tables.length > 0) {
          await db.begin((tx) =>
            tx.unsafe(tables.map((t) => `delete from "${t.tablename}"`).join(";\n")),
          );
        }
      } finally {
        await db.end();
      }
    },
    async drop() {
      const db = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      try {
        await db.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await db.end();
      }
    },
  };
}

function checkedTag(tag: string): string {
  if (!TAG.test(tag)) throw new Error(`Not a temp database tag: ${tag}`);
  return tag;
}

/**
 * Drops every database created with this tag that is still there (a test process that crashed
 * or was cancelled before closing its servers); answers their names. Only this tag's: other runs
 * on the same PostgreSQL server keep theirs.
 */
export async function dropTempDatabases(tag: string): Promise<string[]> {
  const pattern = `${PREFIX}${checkedTag(tag)}\\_%`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    const rows = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${pattern}`;
    for (const { datname } of rows) {
      // The name came from pg_database and matched our prefix; still quote it as an identifier.
      await admin.unsafe(`drop database if exists "${datname.replaceAll('"', '""')}" with (force)`);
    }
    return rows.map((r) => r.datname);
  } finally {
    await admin.end();
  }
}
