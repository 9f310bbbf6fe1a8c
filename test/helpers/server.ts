// Starts a real Wren on a loopback port with its own temporary data directory, for HTTP tests.
// Requests go over a real socket; `restart()` stops and starts the same data directory again.

import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import type { Config } from "../../src/config/schema.ts";
import type { Clock } from "../../src/domain/clock.ts";
import { type RunningWren, startWren } from "../../src/main.ts";
import type { WriteFaults } from "../../src/storage/json-file/index.ts";
import { createTempDatabase } from "../../src/storage/postgres/testing/temp-database.ts";

/**
 * `WREN_TEST_STORAGE=postgres` runs the HTTP tests on PostgreSQL: each test server gets its own
 * throw-away database (dropped when it closes), unless the test chose a backend itself or needs
 * json-file's disk-fault hook. `npm test` runs the HTTP suites once this way (test/postgres-pass.ts).
 */
const TEST_STORAGE = process.env.WREN_TEST_STORAGE === "postgres" ? "postgres" : "json-file";
/** Set by test/postgres-pass.ts: names this run's databases, which it sweeps at the end. */
const DATABASE_TAG = process.env.WREN_TEST_DATABASE_TAG;

export interface TestServer {
  url: string;
  dataDir: string;
  config: Config;
  wren: RunningWren;
  /** fetch() relative to the server, with an optional bearer token. */
  request(path: string, init?: RequestInit & { token?: string }): Promise<Response>;
  restart(): Promise<void>;
  /** Stops the server and keeps its data directory; `start()` serves it again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Per-account budgets and inbox limits high enough that no test reaches them by accident: tests
 * post many statuses and media, and every instance delivers from 127.0.0.1. Applied by default;
 * a test about these limits sets its own (its env wins).
 */
export const RELAXED_LIMITS: Readonly<Record<string, string>> = {
  WREN_ACCOUNT_RATE_LIMIT_REQUESTS: "1000000000",
  WREN_STATUS_RATE_LIMIT_REQUESTS: "1000000000",
  WREN_MEDIA_RATE_LIMIT_REQUESTS: "1000000000",
  WREN_FOLLOW_RATE_LIMIT_REQUESTS: "1000000000",
  WREN_INBOX_RATE_LIMIT_REQUESTS: "1000000000",
  WREN_INBOX_SENDER_RATE_LIMIT_REQUESTS: "1000000000",
};

/**
 * Password hashing at scrypt's lowest accepted cost (N = 2^10 instead of 2^15): every test user
 * costs a hash, and at the production cost these hashes took a large share of the suites' time.
 * Applied by default (a test's env wins); src/services/auth/passwords.test.ts checks the production
 * default itself.
 */
export const FAST_PASSWORD_HASHING: Readonly<Record<string, string>> = {
  WREN_PASSWORD_HASH_COST: "10",
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startTestServer(
  env: Record<string, string> = {},
  options: { clock?: Clock; dataDir?: string; port?: number; writeFaults?: WriteFaults } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "wren-test-")));
  const database =
    TEST_STORAGE === "postgres" && env.WREN_STORAGE === undefined && !options.writeFaults
      ? await createTempDatabase(DATABASE_TAG ? { tag: DATABASE_TAG } : {})
      : undefined;
  const configOn = (port: number) =>
    loadConfig({
      WREN_HOST: "127.0.0.1",
      WREN_PORT: String(port),
      WREN_DATA_DIR: dataDir,
      WREN_PUBLIC_URL: `http://127.0.0.1:${port}`,
      WREN_LOG_LEVEL: "error",
      ...RELAXED_LIMITS,
      ...FAST_PASSWORD_HASHING,
      ...(database ? { WREN_STORAGE: "postgres", WREN_DATABASE_URL: database.url } : {}),
      ...env,
    });
  const startOptions = {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.writeFaults ? { writeFaults: options.writeFaults } : {}),
  };
  let config = configOn(options.port ?? (await freePort()));
  let wren: RunningWren;
  for (let attempt = 1; ; attempt++) {
    try {
      wren = await startWren(config, startOptions);
      break;
    } catch (error) {
      // A port found free can be taken before the server listens on it (by an outgoing
      // connection's ephemeral port, to PostgreSQL for one): another free port, unless the test
      // chose the port.
      const taken = (error as { code?: string }).code === "EADDRINUSE";
      if (taken && options.port === undefined && attempt < 3) {
        config = configOn(await freePort());
        continue;
      }
      // No server to close later: its database goes now.
      await database?.drop();
      throw error;
    }
  }
  const url = config.publicUrl;
  const server: TestServer = {
    url,
    dataDir,
    config,
    get wren() {
      return wren;
    },
    request(path, init = {}) {
      const { token, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (token) headers.set("authorization", `Bearer ${token}`);
      return fetch(new URL(path, url), { ...rest, headers, redirect: "manual" });
    },
    async restart() {
      await wren.close();
      wren = await startWren(config, startOptions);
    },
    async stop() {
      await wren.close();
    },
    async start() {
      wren = await startWren(config, startOptions);
    },
    async close() {
      try {
        await wren.close();
      } finally {
        // Not awaited: a drop takes a second or more (PostgreSQL checkpoints), the next test
        // need not wait for it, and the pending drop keeps the test process alive until done.
        // A drop that fails leaves the database to test/postgres-pass.ts's sweep.
        database?.drop().catch(() => {});
        if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
  return server;
}
