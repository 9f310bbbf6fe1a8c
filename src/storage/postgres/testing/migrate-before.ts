// Tests only: a database's schema as it was before a migration, for tests of what that migration
// does to rows written before it (put them in, then call migrate()).

import type { Sql } from "../connect.ts";
import { listMigrations } from "../migrate.ts";

/** Applies, on an empty database, every migration whose name sorts before `name`. */
export async function migrateBefore(sql: Sql, name: string): Promise<void> {
  await sql`create table wren_migrations (name text primary key, applied_at timestamptz not null default now())`;
  for (const migration of await listMigrations()) {
    if (migration.name >= name) break;
    await sql.begin(async (tx) => {
      await tx.unsafe(migration.sql);
      await tx`insert into wren_migrations (name) values (${migration.name})`;
    });
  }
}
