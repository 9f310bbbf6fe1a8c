// Load generator process: runs autocannon against one target and prints its figures as one
// JSON line. Kept out of both servers' processes so neither shares a CPU loop with the load.

import { readFileSync } from "node:fs";
import autocannon from "autocannon";

export interface LoadSpec {
  url: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  headers?: Record<string, string>;
  body?: string;
  /** Paths to cycle through (one per request), for writes that must not repeat themselves. */
  paths?: string[];
  connections: number;
  /** Seconds. */
  duration: number;
}

export interface LoadResult {
  /** Successful (2xx) responses per second. */
  rps: number;
  requests: number;
  non2xx: number;
  errors: number;
  latencyP50: number;
  latencyP99: number;
  /** This load process's own CPU time over its run, in milliseconds (user + system). */
  cpuMs: number;
}

const specFile = process.argv[2];
if (!specFile) throw new Error("usage: load-worker.ts <spec.json>");
const spec = JSON.parse(readFileSync(specFile, "utf8")) as LoadSpec;
let next = 0;
const paths = spec.paths;
const cpuBefore = process.cpuUsage();
const result = await autocannon({
  url: spec.url,
  method: spec.method,
  headers: spec.headers ?? {},
  ...(spec.body === undefined ? {} : { body: spec.body }),
  connections: spec.connections,
  duration: spec.duration,
  ...(paths && paths.length > 0
    ? {
        requests: [
          {
            setupRequest: (request: autocannon.Request) => {
              const path = paths[next % paths.length] as string;
              next++;
              return { ...request, path };
            },
          },
        ],
      }
    : {}),
});
const cpu = process.cpuUsage(cpuBefore);
const ok = result.requests.total - result.non2xx;
const output: LoadResult = {
  rps: ok / Math.max(result.duration, 0.001),
  requests: result.requests.total,
  non2xx: result.non2xx,
  errors: result.errors,
  latencyP50: result.latency.p50,
  latencyP99: result.latency.p99,
  cpuMs: (cpu.user + cpu.system) / 1000,
};
process.stdout.write(`${JSON.stringify(output)}\n`);
