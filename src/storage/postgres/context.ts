// What every PostgreSQL store is built with: the shared pool, the change signal, and the job a
// write may carry along (outbox.ts).

import type { Changes } from "./changes.ts";
import type { Sql } from "./connect.ts";
import type { Outbox } from "./outbox.ts";

export interface PgContext {
  sql: Sql;
  changes: Changes;
  outbox: Outbox;
  /** This storage's application_name: the writer its own statements' signals name. */
  self: string;
}
