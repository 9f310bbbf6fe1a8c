// Several real `wren serve` processes on one throw-away PostgreSQL database, sharing one public
// address (a load balancer in front of the web processes), as a deployment with separate web and
// worker processes runs. Every process started is killed in close(), failing test or not.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createTempDatabase,
  type TempDatabase,
} from "../../src/storage/postgres/testing/temp-database.ts";
import { type ServeProcess, startServe } from "../cli/run-wren.ts";
import { freePort, RELAXED_LIMITS } from "../helpers/server.ts";
import { type LoadBalancer, startLoadBalancer } from "./load-balancer.ts";

export interface ClusterProcess {
  role: "web" | "worker";
  pid: number;
  /** Where a web process listens (null for a worker). */
  url: string | null;
  serve: ServeProcess;
  /** Resolves with the signal (or exit code) once the process is gone. */
  kill(signal: NodeJS.Signals): Promise<NodeJS.Signals | number | null>;
}

export interface Cluster {
  database: TempDatabase;
  balancer: LoadBalancer;
  /** The settings every process shares (storage, public address, limits). */
  env: Record<string, string>;
  /** Starts a process; resolves once its banner says it runs. `extra` overrides `env`. */
  start(role: "web" | "worker", extra?: Record<string, string>): Promise<ClusterProcess>;
  close(): Promise<void>;
}

/** Started processes print their banner within this even on a loaded machine. */
const START_TIMEOUT_MS = 60_000;

export async function startCluster(env: Record<string, string> = {}): Promise<Cluster> {
  const database = await createTempDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), "wren-cluster-"));
  const balancer = await startLoadBalancer();
  const shared: Record<string, string> = {
    WREN_STORAGE: "postgres",
    WREN_DATABASE_URL: database.url,
    WREN_DATABASE_POOL_MAX: "4",
    WREN_PUBLIC_URL: balancer.url,
    WREN_HOST: "127.0.0.1",
    // Only local media would use it; the database is what the processes share.
    WREN_DATA_DIR: dataDir,
    WREN_LOG_LEVEL: "error",
    WREN_ALLOW_PRIVATE_ADDRESSES: "true",
    WREN_RATE_LIMIT_REQUESTS: "1000000000",
    ...RELAXED_LIMITS,
    ...env,
  };
  const processes: ClusterProcess[] = [];

  async function start(
    role: "web" | "worker",
    extra: Record<string, string> = {},
  ): Promise<ClusterProcess> {
    const port = role === "web" ? await freePort() : 0;
    const serve = startServe({ ...shared, WREN_ROLE: role, WREN_PORT: String(port), ...extra });
    const exited = serve.exited.then(({ code, signal }) => signal ?? code);
    const running: ClusterProcess = {
      role,
      pid: serve.child.pid as number,
      url: role === "web" ? `http://127.0.0.1:${port}` : null,
      serve,
      kill(signal) {
        if (serve.child.exitCode === null && serve.child.signalCode === null) {
          serve.child.kill(signal);
        }
        return exited;
      },
    };
    processes.push(running);
    await serve.waitForOutput(
      role === "web" ? /Wren is listening on/ : /running as a worker/,
      START_TIMEOUT_MS,
    );
    return running;
  }

  return {
    database,
    balancer,
    env: shared,
    start,
    async close() {
      // Each step runs whatever the one before did: the database is dropped even if a kill fails.
      const kills = await Promise.allSettled(processes.map((p) => p.kill("SIGKILL")));
      const rest = await Promise.allSettled([
        balancer.close(),
        database.drop(),
        rm(dataDir, { recursive: true, force: true }),
      ]);
      const failed = [...kills, ...rest].find((s) => s.status === "rejected");
      if (failed) throw failed.reason;
    },
  };
}
