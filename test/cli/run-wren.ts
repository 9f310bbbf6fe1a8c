// Runs the real `wren` command (bin/wren.js, as an operator would) in a child process, with a
// clean WREN_* environment so the developer's own settings cannot leak into the tests.

import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

export const WREN_BIN = fileURLToPath(new URL("../../bin/wren.js", import.meta.url));

export interface WrenResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function wrenEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("WREN_")) clean[name] = value;
  }
  // Cheap password hashes, as in the in-process test servers (test/helpers/server.ts).
  return { ...clean, WREN_LOG_LEVEL: "warning", WREN_PASSWORD_HASH_COST: "10", ...env };
}

type LoopbackSetting = "WREN_HOST" | "WREN_PORT" | "WREN_PUBLIC_URL" | "WREN_DATA_DIR";

/** Settings for a `wren serve` on a free loopback port, keeping its data in `dataDir`. */
export async function serveEnv(
  dataDir: string,
  extra: Record<string, string> = {},
): Promise<Record<string, string> & Record<LoopbackSetting, string>> {
  // Loaded here only: the helper brings the whole server, which most CLI tests never start.
  const { freePort } = await import("../helpers/server.ts");
  const port = await freePort();
  return {
    WREN_HOST: "127.0.0.1",
    WREN_PORT: String(port),
    WREN_PUBLIC_URL: `http://127.0.0.1:${port}`,
    WREN_DATA_DIR: dataDir,
    ...extra,
  };
}

export function spawnWren(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [WREN_BIN, ...args], {
    env: wrenEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Runs one command to its end (failing the test if it takes more than `timeoutMs`). */
export async function runWren(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<WrenResult> {
  const child = spawnWren(args, env);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (s: string) => {
    stdout += s;
  });
  child.stderr?.setEncoding("utf8").on("data", (s: string) => {
    stderr += s;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [code, signal] = (await once(child, "close")) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  return { code, signal, stdout, stderr };
}

/** A running `wren serve` child, with what it printed so far. */
export interface ServeProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout (rejects if the process ends first). */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves when the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startServe(env: Record<string, string>): ServeProcess {
  const child = spawnWren(["serve"], env);
  let out = "";
  let err = "";
  child.stdout?.setEncoding("utf8").on("data", (s: string) => {
    out += s;
    child.emit("output");
  });
  child.stderr?.setEncoding("utf8").on("data", (s: string) => {
    err += s;
  });
  const exited = once(child, "close").then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForOutput(pattern, timeoutMs = 90_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = out.match(pattern);
          if (!match) return false;
          cleanup();
          resolve(match);
          return true;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no ${pattern} in time; stdout:\n${out}\nstderr:\n${err}`));
        }, timeoutMs);
        const onExit = () => {
          if (check()) return;
          cleanup();
          reject(new Error(`wren serve ended before ${pattern}; stdout:\n${out}\nstderr:\n${err}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          child.off("output", check);
          child.off("close", onExit);
        };
        if (check()) return;
        child.on("output", check);
        child.on("close", onExit);
      });
    },
  };
}

/**
 * Creates a local account as `wren account create NAME --email NAME@example.com` would, its id:
 * the same admin operation, run in this process on the data directory (no server may hold it).
 * For tests whose subject is another command: a `wren` process each would only cost time.
 */
export async function seedAccount(name: string, env: Record<string, string>): Promise<string> {
  // Loaded here only, as in serveEnv: the services, which most CLI tests never load themselves.
  const [{ withOfflineServices }, { runAdminOperation }] = await Promise.all([
    import("../helpers/wren-process.ts"),
    import("../../src/admin/operations.ts"),
  ]);
  const dataDir = env.WREN_DATA_DIR;
  if (dataDir === undefined) throw new Error("seedAccount needs WREN_DATA_DIR");
  const made = await withOfflineServices(
    dataDir,
    (ctx) =>
      runAdminOperation(ctx, "account.create", {
        username: name,
        email: `${name}@example.com`,
        password: "a long passphrase",
      }),
    undefined,
    env,
  );
  return (made as { id: string }).id;
}
