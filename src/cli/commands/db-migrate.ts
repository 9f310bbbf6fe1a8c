// `wren db migrate`: applies the PostgreSQL schema migrations this Wren brings. Serving processes
// only check that none is pending, so an upgrade changes the schema when the operator says so
// (once, from one machine; concurrent runs wait for each other and apply each file once).

import { type Command, EXIT_OK, UsageError } from "../command.ts";
import { commandConfig } from "../setup.ts";

export const dbMigrate: Command = {
  path: ["db", "migrate"],
  summary: "Apply pending PostgreSQL schema migrations (WREN_STORAGE=postgres).",
  positionals: [],
  options: {},
  details: `Run it after installing or upgrading Wren, before starting the new version's processes;
they refuse to start while a migration is pending. Safe to run again: applied migrations are
recorded in the table wren_migrations and skipped.

Example:
  WREN_STORAGE=postgres WREN_DATABASE_URL=postgres://wren@db/wren wren db migrate`,
  async run() {
    const config = await commandConfig();
    if (config.storage !== "postgres" || config.databaseUrl === undefined) {
      throw new UsageError(
        "wren db migrate works on PostgreSQL: set WREN_STORAGE=postgres and WREN_DATABASE_URL",
        "wren db migrate --help",
      );
    }
    const [{ connectPostgres }, { migrate }] = await Promise.all([
      import("../../storage/postgres/connect.ts"),
      import("../../storage/postgres/migrate.ts"),
    ]);
    const sql = connectPostgres({ url: config.databaseUrl, poolMax: 1 });
    try {
      const applied = await migrate(sql, (name) => process.stdout.write(`applied ${name}\n`));
      process.stdout.write(
        applied.length === 0
          ? "The database is up to date.\n"
          : `Applied ${applied.length} migration(s); the database is up to date.\n`,
      );
    } finally {
      await sql.end({ timeout: 5 });
    }
    return EXIT_OK;
  },
};
