// What every PostgreSQL store is built with: the shared pool and the change signal.

import type { Changes } from "./changes.ts";
import type { Sql } from "./connect.ts";

export interface PgContext {
  sql: Sql;
  changes: Changes;
}
