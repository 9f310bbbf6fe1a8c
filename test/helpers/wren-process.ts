// A real `wren serve` in a child process (the crash and soak suites kill it or watch its memory,
// which an in-process server cannot stand), and users with tokens seeded into its data directory
// through the services while no server holds the directory.

import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import type { Clock } from "../../src/domain/clock.ts";
import { createLocalAccount } from "../../src/services/accounts/create-local-account.ts";
import type { ServiceContext } from "../../src/services/context.ts";
import { createPersonalToken } from "../../src/services/oauth/create-personal-token.ts";
import { createServices } from "../../src/wiring/services.ts";
import { openStorage } from "../../src/wiring/storage.ts";
import { FAST_PASSWORD_HASHING, RELAXED_LIMITS } from "./server.ts";

const ROOT = join(import.meta.dirname, "..", "..");

export interface WrenProcess {
  child: ChildProcess;
  pid: number;
  url: string;
  /** Resolves with the exit signal (or code) once the process is gone. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** What the server wrote to stderr (logs at level error). */
  stderr(): string;
  kill(signal: NodeJS.Signals): Promise<NodeJS.Signals | number | null>;
}

export function wrenEnv(dataDir: string, port: number): Record<string, string> {
  return {
    WREN_HOST: "127.0.0.1",
    WREN_PORT: String(port),
    WREN_DATA_DIR: dataDir,
    WREN_PUBLIC_URL: `http://127.0.0.1:${port}`,
    WREN_LOG_LEVEL: "error",
    // The suites' clients come from one address: the limit would only measure itself.
    WREN_RATE_LIMIT_REQUESTS: "1000000000",
    ...RELAXED_LIMITS,
    ...FAST_PASSWORD_HASHING,
  };
}

/** Starts `wren serve` with the pinned Node and resolves once it answers the instance endpoint. */
export async function spawnWren(
  dataDir: string,
  port: number,
  extraEnv: Record<string, string> = {},
): Promise<WrenProcess> {
  const env = { ...process.env, ...wrenEnv(dataDir, port), ...extraEnv };
  const child = spawn(process.execPath, [join(ROOT, "src/cli/main.ts"), "serve"], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? code)),
  );
  // With the test certificate (TEST_TLS_ENV) it serves HTTPS, as federating instances do.
  const url = `${extraEnv.WREN_TLS_CERT ? "https" : "http"}://127.0.0.1:${port}`;
  const running: WrenProcess = {
    child,
    pid: child.pid as number,
    url,
    exited,
    stderr: () => stderr,
    kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  // A loaded machine (other tests, a big data directory) may take a while to start.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`wren serve exited with ${child.exitCode}: ${stderr}`);
    }
    try {
      const res = await fetch(`${url}/api/v1/instance`);
      if (res.ok) return running;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await running.kill("SIGKILL");
  throw new Error(`wren serve did not start within a minute: ${stderr}`);
}

export interface SeededUser {
  username: string;
  id: string;
  token: string;
}

/**
 * Opens the data directory (no server may hold it), runs `work` with a service context and
 * closes it again. `clock` lets a caller date records, e.g. a poll that closes in seconds.
 */
export async function withOfflineServices<T>(
  dataDir: string,
  work: (ctx: ServiceContext) => Promise<T>,
  clock?: Clock,
  extraEnv: Record<string, string> = {},
): Promise<T> {
  const config = loadConfig({ ...wrenEnv(dataDir, 1), ...extraEnv });
  const storage = await openStorage(config);
  try {
    const { ctx } = createServices(config, storage, clock ? { clock } : {});
    return await work(ctx);
  } finally {
    await storage.close();
  }
}

/**
 * Local users, each with a read/write/follow token. `extraEnv` is the server's own where it
 * matters for the records (WREN_PUBLIC_URL: the accounts' ActivityPub ids, for federating).
 */
export function seedUsers(
  dataDir: string,
  usernames: readonly string[],
  extraEnv: Record<string, string> = {},
): Promise<SeededUser[]> {
  return withOfflineServices(
    dataDir,
    async (ctx) => {
      const users: SeededUser[] = [];
      for (const username of usernames) {
        const { account } = await createLocalAccount(ctx, {
          username,
          email: `${username}@suite.invalid`,
          password: "a password long enough for the suites",
          allowReserved: true,
        });
        const { secret } = await createPersonalToken(ctx, {
          username,
          scopes: ["read", "write", "follow"],
        });
        users.push({ username, id: account.id, token: secret });
      }
      return users;
    },
    undefined,
    extraEnv,
  );
}

/** Resident memory of a process in KiB (Linux), from /proc/<pid>/status. */
export async function residentKiB(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const match = status.match(/^VmRSS:\s+(\d+)\s+kB/m);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
