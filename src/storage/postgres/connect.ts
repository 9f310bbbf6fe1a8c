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

/**
 * The URL without a `host` query parameter naming a socket directory, and that directory: libpq's
 * way to reach a server on the same machine over its Unix socket
 * (`postgres://user@localhost/db?host=/var/run/postgresql`), which the `postgres` client takes as
 * an option rather than from the URL (it would send the parameter to the server).
 */
export function socketOf(url: string): { url: string; socketDir: string | undefined } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, socketDir: undefined };
  }
  const host = parsed.searchParams.get("host");
  if (host === null || !host.startsWith("/")) return { url, socketDir: undefined };
  parsed.searchParams.delete("host");
  return { url: parsed.toString(), socketDir: host };
}

export function connectPostgres(connection: PostgresConnection): Sql {
  const { url, socketDir } = socketOf(connection.url);
  return postgres(url, {
    // A socket directory in the URL: the server's Unix socket instead of TCP (cheaper per
    // statement for a database on the same machine: a loopback TCP write does the receiving
    // side's work in the writer's system call).
    ...(socketDir === undefined ? {} : { host: socketDir }),
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
