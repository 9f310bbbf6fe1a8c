// `node bench/profile.ts [scenario…]`: runs Wren with `--cpu-prof` on a seeded data directory
// under the load of one or more bench probes (by name, e.g. "public timeline", or ad hoc, e.g.
// "GET /api/v1/instance"; default: all reads) and prints the functions with the most self time. Where the bench says a target is
// missed, this says why. The .cpuprofile files stay in the printed directory (open them in
// Chrome's DevTools for the full picture). It also prints the server's CPU time per request,
// which the load of other processes on a shared machine disturbs far less than requests/s.
// With `--perf` it samples the server with Linux perf instead (cpu-clock, call stacks) and prints
// the CPU by where the code lives, per probe (lib/perf-stacks.ts says why that is the truer
// picture of system-call-heavy work); perf must be installed (Debian: linux-perf). With
// `--postgres` the server runs on a PostgreSQL database made for the run (bench/lib/pg-database.ts).

import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../test/helpers/server.ts";
import { adHocProbes } from "./lib/ad-hoc-probes.ts";
import { profileIn, topSelfTime } from "./lib/cpuprofile.ts";
import { recordPerf } from "./lib/perf-stacks.ts";
import { benchDatabase, postgresEnv } from "./lib/pg-database.ts";
import { cpuMilliseconds, runLoad, startWrenServer } from "./lib/processes.ts";
import { benchEnv, seed } from "./lib/seed.ts";
import { readProbes } from "./scenarios/reads.ts";
import { writeProbes } from "./scenarios/writes.ts";

const usePerf = process.argv.includes("--perf");
const usePostgres = process.argv.includes("--postgres");
const wanted = process.argv.slice(2).filter((arg) => arg !== "--perf" && arg !== "--postgres");
const dataDir = await mkdtemp(join(tmpdir(), "wren-profile-"));
const profileDir = await mkdtemp(join(tmpdir(), "wren-cpuprofile-"));
const database = usePostgres ? await benchDatabase(`wren_bench_profile_${process.pid}`) : undefined;
const env = {
  ...benchEnv(dataDir, await freePort()),
  ...(database ? postgresEnv(database.url) : {}),
};
const seeded = await seed(env, {
  statuses: 1_000,
  authors: 100,
  ownStatuses: 4_000,
  followTargets: 4_000,
});
// Named bench probes, or ad-hoc ones written as "GET /api/v1/…" (sent with the viewer's token).
const named = [...readProbes(seeded), ...writeProbes(seeded)];
const adHoc = adHocProbes(wanted, seeded.token);
const probes =
  wanted.length === 0
    ? readProbes(seeded)
    : [...named.filter((p) => wanted.includes(p.name)), ...adHoc];
const wren = await startWrenServer({
  ...env,
  NODE_OPTIONS: usePerf
    ? "--perf-basic-prof --interpreted-frames-native-stack"
    : `--cpu-prof --cpu-prof-dir=${profileDir}`,
});
try {
  for (const probe of probes) {
    const pid = wren.process.pid as number;
    const load = (duration: number) =>
      runLoad({
        url: `${env.WREN_PUBLIC_URL}${probe.path}`,
        method: probe.method,
        connections: 10,
        duration,
        ...(probe.headers ? { headers: probe.headers } : {}),
        ...(probe.body === undefined ? {} : { body: probe.body }),
        ...(probe.paths ? { paths: probe.paths } : {}),
      });
    // perf samples every thread: a second of load first, so the optimising compiler's work
    // on the probe's code is done before sampling starts.
    if (usePerf) await load(1);
    const stopPerf = usePerf ? recordPerf(pid, join(profileDir, "perf.data")) : undefined;
    const before = await cpuMilliseconds(pid);
    const result = await load(Number(process.env.WREN_PROFILE_SECONDS ?? 5));
    const spent = (await cpuMilliseconds(pid)) - before;
    // CPU per request is steadier than requests/s on a shared machine.
    const perRequest = (spent * 1000) / Math.max(result.requests, 1);
    process.stdout.write(
      `${probe.name}: ${Math.round(result.rps)} req/s, ${Math.round(perRequest)} µs CPU/request${result.non2xx > 0 ? `, ${result.non2xx} non-2xx` : ""}\n`,
    );
    if (stopPerf) {
      for (const { owner, share } of (await stopPerf()).slice(0, 25)) {
        process.stdout.write(`${(share * 100).toFixed(1).padStart(5)}%  ${owner}\n`);
      }
    }
  }
} finally {
  await wren.stop();
  await database?.drop();
}

if (!usePerf) {
  const file = await profileIn(profileDir);
  for (const line of await topSelfTime(file)) process.stdout.write(`${line}\n`);
  process.stdout.write(`profile: ${file}\n`);
}
