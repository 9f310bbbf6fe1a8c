// What a failed start means for the operator. Binding a port and writing the data directory can
// both fail with EACCES; only the failed bind is about the port, any other is about a file.

import type { Config } from "../config/schema.ts";
import { shellQuote } from "./shell-quote.ts";

type StartConfig = Pick<Config, "host" | "port" | "dataDir"> &
  Partial<Pick<Config, "storage" | "databaseUrl">>;

/** The error to show for `error` thrown by startWren: a plain sentence where one is known. */
export function explainStartError(error: unknown, config: StartConfig): unknown {
  const failure = error as NodeJS.ErrnoException;
  const where = `${config.host}:${config.port}`;
  if (config.storage === "postgres") {
    const database = databaseProblem(failure, config.databaseUrl);
    if (database) return new Error(database);
  }
  switch (failure?.code) {
    case "EADDRINUSE":
      return new Error(`Cannot listen on ${where}: the port is in use (change WREN_PORT)`);
    case "EADDRNOTAVAIL":
      return new Error(`Cannot listen on ${where}: no such address here (check WREN_HOST)`);
    case "EACCES":
    case "EPERM":
      if (failure.syscall === "listen") {
        return new Error(`Cannot listen on ${where}: permission denied (use a port above 1023)`);
      }
      return new Error(cannotWriteMessage(failure, config.dataDir));
    default:
      return error;
  }
}

/** A file of the data directory this user may not use: which one, and how to fix it. */
function cannotWriteMessage(error: NodeJS.ErrnoException, dataDir: string): string {
  const path = error.path ?? dataDir;
  const user = process.getuid?.() ?? "this user";
  return [
    `Cannot use ${path}: permission denied for the user running Wren (uid ${user}).`,
    "The data directory and everything in it must belong to that user, e.g.:",
    `  chown -R <that user> ${shellQuote(dataDir)} && chmod -R u+rwX ${shellQuote(dataDir)}`,
    "(or run Wren as the user that owns the data directory).",
  ].join("\n");
}

/** PostgreSQL errors a start can meet, in words (never the URL's password). */
function databaseProblem(
  error: NodeJS.ErrnoException,
  databaseUrl: string | undefined,
): string | null {
  let target = "the database";
  try {
    const url = new URL(databaseUrl ?? "");
    target = `the PostgreSQL database ${url.pathname.slice(1)} at ${url.hostname}:${url.port || 5432}`;
  } catch {}
  switch (error?.code) {
    case "ECONNREFUSED":
    case "ENOTFOUND":
    case "EHOSTUNREACH":
    case "ETIMEDOUT":
    case "CONNECT_TIMEOUT":
      return `Cannot reach ${target} (${error.code}): is PostgreSQL running there? (check WREN_DATABASE_URL)`;
    case "3D000":
      return `Cannot open ${target}: it does not exist (create it with createdb, then run \`wren db migrate\`)`;
    case "28P01":
    case "28000":
      return `Cannot log in to ${target}: the user or password in WREN_DATABASE_URL was refused`;
    default:
      return null;
  }
}
