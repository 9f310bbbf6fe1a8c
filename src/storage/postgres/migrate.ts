// Plain SQL migrations: `migrations/NNNN_name.sql`, applied in name order, each in its own
// transaction and recorded in `wren_migrations`. `wren db migrate` applies them; a serving
// process only checks that none is pending, so an upgrade never changes a schema by surprise.

import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Sql } from "./connect.ts";

const MIGRATIONS_DIR = join(import.meta.dirname, "migrations");
/** Serialises migrators: two `wren db migrate` at once apply each file once. */
const MIGRATION_LOCK = 7_265_019;

export interface Migration {
  name: string;
  sql: string;
}

export async function listMigrations(): Promise<Migration[]> {
  const names = (await readdir(MIGRATIONS_DIR)).filter((n) => n.endsWith(".sql")).sort();
  return Promise.all(
    names.map(async (name) => ({ name, sql: await readFile(join(MIGRATIONS_DIR, name), "utf8") })),
  );
}

async function ensureHistory(sql: Sql): Promise<void> {
  await sql`
    create table if not exists wren_migrations (
      name text primary key,
      applied_at timestamptz not null default now()
    )`;
}

async function appliedNames(sql: Sql): Promise<Set<string>> {
  const exists = await sql`select to_regclass('wren_migrations') is not null as ok`;
  if (!exists[0]?.ok) return new Set();
  const rows = await sql<{ name: string }[]>`select name from wren_migrations`;
  return new Set(rows.map((r) => r.name));
}

/** Names of the migrations this Wren has and the database has not applied yet. */
export async function pendingMigrations(sql: Sql): Promise<string[]> {
  const applied = await appliedNames(sql);
  return (await listMigrations()).map((m) => m.name).filter((name) => !applied.has(name));
}

/** Applies every pending migration; returns the names applied, in order. */
export async function migrate(
  sql: Sql,
  onApplied: (name: string) => void = () => {},
): Promise<string[]> {
  await ensureHistory(sql);
  const done: string[] = [];
  for (const migration of await listMigrations()) {
    const applied = await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      const seen = await tx`select 1 from wren_migrations where name = ${migration.name}`;
      if (seen.length > 0) return false;
      await tx.unsafe(migration.sql);
      await tx`insert into wren_migrations (name) values (${migration.name})`;
      return true;
    });
    if (applied) {
      done.push(migration.name);
      onApplied(migration.name);
    }
  }
  return done;
}
