// PostgreSQL databases for the bench, on the local server the tests use (127.0.0.1:5432, trust
// auth): created and migrated (as `wren db migrate` does) before seeding, dropped afterwards.

import postgres from "postgres";
import { connectPostgres } from "../../src/storage/postgres/connect.ts";
import { migrate } from "../../src/storage/postgres/migrate.ts";
import { ADMIN_URL } from "../../src/storage/postgres/testing/temp-database.ts";

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

function admin<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  return work(sql).finally(() => sql.end());
}

/** The database `name`, created empty unless `reuse` and it exists already; migrated. */
export async function benchDatabase(
  name: string,
  options: { reuse?: boolean } = {},
): Promise<BenchDatabase & { existed: boolean }> {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const existed = await admin(async (sql) => {
    const [row] = await sql`select 1 from pg_database where datname = ${name}`;
    if (row && options.reuse) return true;
    await sql.unsafe(`drop database if exists ${name} with (force)`);
    await sql.unsafe(`create database ${name}`);
    return false;
  });
  // A kept database gets the migrations added since it was made.
  const sql = connectPostgres({ url: url.toString(), poolMax: 1 });
  await migrate(sql).finally(() => sql.end());
  return {
    url: url.toString(),
    existed,
    drop: async () => {
      await admin((sql) => sql.unsafe(`drop database if exists ${name} with (force)`));
    },
  };
}

/** The environment that points a Wren process (or the seeding) at `url`. */
export function postgresEnv(url: string): Record<string, string> {
  return { WREN_STORAGE: "postgres", WREN_DATABASE_URL: url };
}
