// Child processes of the bench: the Wren server, the bare reference server and the load worker,
// all run with the project's pinned Node (this process's own executable).

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { LoadResult, LoadSpec } from "./load-worker.ts";

const here = new URL(".", import.meta.url).pathname;
const root = new URL("../../", import.meta.url).pathname;

export interface Child {
  process: ChildProcess;
  stop(): Promise<void>;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
}

/** Starts a script and resolves with the first stdout line matching `ready`. */
async function startWith(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    child.once("exit", (code) =>
      reject(new Error(`${script} exited with ${code} before it was ready`)),
    );
    lines.on("line", (line) => {
      const m = line.match(ready);
      if (m) resolve(m);
    });
  });
  return { child, match };
}

export async function startBareServer(
  responsesFile: string,
  options: { withWrenHeaders?: boolean } = {},
): Promise<Child & { url: string }> {
  const { child, match } = await startWith(
    `${here}bare-server.ts`,
    options.withWrenHeaders ? [responsesFile, "--with-wren-headers"] : [responsesFile],
    {},
    /^LISTENING (\d+)/,
  );
  return { process: child, stop: stopper(child), url: `http://127.0.0.1:${match[1]}` };
}

/**
 * Hono and its Node adapter alone, answering what the bare server answers (framework floor),
 * with Wren's other headers too if asked.
 */
export async function startBareHonoServer(
  responsesFile: string,
  options: { withWrenHeaders?: boolean } = {},
): Promise<Child & { url: string }> {
  const { child, match } = await startWith(
    `${here}bare-hono-server.ts`,
    options.withWrenHeaders ? [responsesFile, "--with-wren-headers"] : [responsesFile],
    {},
    /^LISTENING (\d+)/,
  );
  return { process: child, stop: stopper(child), url: `http://127.0.0.1:${match[1]}` };
}

export interface WrenServerOptions {
  /** The checkout to run (default: this one); bench/compare-trees.ts runs two in turn. */
  tree?: string;
  /** A command the server runs under, e.g. valgrind and its arguments. */
  wrapper?: readonly string[];
  /** `--role` (PostgreSQL only; default all). */
  role?: "all" | "web" | "worker";
  /** Where it answers when not at its public URL (another port than the URL's, same records). */
  listening?: string;
  /** Node's own flags for the server, e.g. `--max-semi-space-size=32` (V8's young generation). */
  nodeFlags?: readonly string[];
}

/** The command line of `wren serve`: the wrapper, then Node with its own flags, then the entry. */
export function serverCommand(options: WrenServerOptions = {}): string[] {
  const main = join(options.tree ?? root, "src/cli/main.ts");
  const role = options.role ? ["--role", options.role] : [];
  return [
    ...(options.wrapper ?? []),
    process.execPath,
    ...(options.nodeFlags ?? []),
    main,
    "serve",
    ...role,
  ];
}

/** `wren serve` on a prepared data directory; ready once it answers the instance endpoint. */
export async function startWrenServer(
  env: Record<string, string>,
  options: WrenServerOptions = {},
): Promise<Child> {
  const [command, ...args] = serverCommand(options);
  const child = spawn(command as string, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = options.listening ?? (env.WREN_PUBLIC_URL as string);
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`wren serve exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/api/v1/instance`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    // A million statuses take over a minute to load today (docs/PERFORMANCE.md).
    if (attempt > 6000) throw new Error("wren serve did not become ready within ten minutes");
    await new Promise((r) => setTimeout(r, 100));
  }
  return { process: child, stop: stopper(child) };
}

/** Runs one load measurement in its own process. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  // The spec can hold tens of thousands of paths: too long for a command line.
  const dir = await mkdtemp(join(tmpdir(), "wren-bench-load-"));
  const specFile = join(dir, "spec.json");
  await writeFile(specFile, JSON.stringify(spec));
  const child = spawn(process.execPath, [`${here}load-worker.ts`, specFile], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  await rm(dir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`load worker exited with ${code}`);
  return JSON.parse(output.trim().split("\n").pop() as string) as LoadResult;
}

/**
 * CPU time a process has used so far, in milliseconds (user + system, all threads). Per request,
 * it is steadier than requests/s on a shared machine.
 */
export async function cpuMilliseconds(pid: number): Promise<number> {
  const { user, system } = await cpuTimes(pid);
  return user + system;
}

/**
 * User and system CPU time of a process so far, in milliseconds. System time includes the
 * kernel's work in fsync, which swings with the other processes' disk traffic; user time is
 * the steadier figure for changes to Wren's own code.
 */
export async function cpuTimes(pid: number): Promise<{ user: number; system: number }> {
  const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second).
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

/**
 * The main thread's time so far, in milliseconds (Linux schedstat): running on a CPU, and
 * runnable but waiting for one. Running plus waiting near the whole wall time means the event
 * loop is the limit (CPU-bound, or starved by other processes); well below it, the server waits
 * for something else (the disk, the thread pool, the clients).
 */
export async function mainThreadSchedule(
  pid: number,
): Promise<{ running: number; waiting: number }> {
  const [running, waiting] = (await readFile(`/proc/${pid}/task/${pid}/schedstat`, "utf8"))
    .trim()
    .split(" ")
    .map((ns) => Number(ns) / 1e6);
  return { running: running ?? Number.NaN, waiting: waiting ?? Number.NaN };
}

/** Resident memory of a process now, in megabytes. */
export async function residentMegabytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? Number.NaN) / 1024;
}
