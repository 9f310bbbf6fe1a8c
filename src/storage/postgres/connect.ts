// One pool of connections (int8 columns such as ids come back as strings, as Wren's ids are) to PostgreSQL for a Wren process. Every store shares it; the pool's
// size is the operator's (WREN_DATABASE_POOL_MAX), sized against max_connections across processes.

import postgres from "postgres";

export type Sql = postgres.Sql;

export interface PostgresConnection {
  /** A postgres:// URL (`WREN_DATABASE_URL`). */
  url: string;
  /** Most connections this process opens (default 10). */
  poolMax?: number;
  /** Seconds an idle connection is kept before it is closed (default 30). */
  idleTimeoutSeconds?: number;
  /** Seconds to wait for a connection to open before failing (default 10). */
  connectTimeoutSeconds?: number;
  /** Names this process's connections (the change signal's payload; pg_stat_activity shows it). */
  applicationName?: string;
}

export function connectPostgres(connection: PostgresConnection): Sql {
  return postgres(connection.url, {
    max: connection.poolMax ?? 10,
    idle_timeout: connection.idleTimeoutSeconds ?? 30,
    connect_timeout: connection.connectTimeoutSeconds ?? 10,
    // NOTICEs (e.g. "relation already exists, skipping") are not worth a log line each.
    onnotice: () => {},
    connection: {
      // Wren's statements are short index scans; the planner's cost estimates for counts over
      // large ranges (an author's statuses at millions of rows) crossed jit_above_cost and
      // spent ~0.5 s compiling a query that runs in milliseconds (docs/PERFORMANCE.md).
      jit: "off",
      ...(connection.applicationName ? { application_name: connection.applicationName } : {}),
    },
  });
}
