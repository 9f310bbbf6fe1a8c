// The statements a bench database ran, read from the local PostgreSQL server's log
// (log_statement = all, set on that database only). Needs Debian's layout: /var/log/postgresql/.

import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import postgres from "postgres";

const logDir = "/var/log/postgresql";

export interface StatementLog {
  /** Where the log ends now: pass to `since`. */
  offset(): Promise<number>;
  /** The statements of the database logged after `offset`, whitespace folded, in order. */
  since(offset: number): Promise<string[]>;
}

/** Turns on statement logging for the database at `url` (its new sessions) and reads it. */
export async function logStatements(url: string): Promise<StatementLog> {
  const file = join(logDir, (await readdir(logDir)).find((f) => f.endsWith(".log")) as string);
  const name = new URL(url).pathname.slice(1);
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`alter database ${name} set log_statement = 'all'`);
  await admin.end();
  const readFrom = async (offset: number) => {
    const size = (await stat(file)).size;
    const handle = await open(file, "r");
    try {
      const buffer = Buffer.alloc(size - offset);
      await handle.read(buffer, 0, buffer.length, offset);
      return buffer.toString("utf8");
    } finally {
      await handle.close();
    }
  };
  return {
    offset: async () => (await stat(file)).size,
    async since(offset) {
      // A log entry starts with a timestamp; a statement's further lines are continuations.
      const entries: string[] = [];
      for (const line of (await readFrom(offset)).split("\n")) {
        if (/^\d{4}-\d\d-\d\d /.test(line)) entries.push(line);
        else if (entries.length > 0) entries[entries.length - 1] += ` ${line}`;
      }
      // The server's log is shared: other sessions' bench databases may log their statements too.
      return entries
        .filter((entry) => entry.includes(`@${name} `))
        .flatMap((entry) => {
          const m = /(?:statement|execute [^:]*): (.*)$/.exec(entry);
          return m ? [(m[1] as string).replace(/\s+/g, " ").trim()] : [];
        });
    },
  };
}

/**
 * How often each statement's shape occurs among `statements`, most frequent first: literals and
 * parameters vary from one to the next, the shape (the first 110 characters) is what repeats.
 */
export function statementShapes(statements: string[]): [string, number][] {
  const shapes = new Map<string, number>();
  for (const statement of statements) {
    const shape = statement
      .replace(/'[^']*'/g, "?")
      .replace(/\$\d+/g, "?")
      .slice(0, 110);
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  return [...shapes].sort((a, b) => b[1] - a[1]);
}
