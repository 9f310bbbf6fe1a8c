// `node bench/profile.ts [scenario…]`: runs Wren with `--cpu-prof` on a seeded data directory
// under the load of one or more bench probes (by name, e.g. "public timeline"; default: all
// reads) and prints the functions with the most self time. Where the bench says a target is
// missed, this says why. The .cpuprofile files stay in the printed directory (open them in
// Chrome's DevTools for the full picture).

import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../test/helpers/server.ts";
import { profileIn, topSelfTime } from "./lib/cpuprofile.ts";
import { runLoad, startWrenServer } from "./lib/processes.ts";
import { benchEnv, seed } from "./lib/seed.ts";
import { readProbes } from "./scenarios/reads.ts";
import { writeProbes } from "./scenarios/writes.ts";

const wanted = process.argv.slice(2);
const dataDir = await mkdtemp(join(tmpdir(), "wren-profile-"));
const profileDir = await mkdtemp(join(tmpdir(), "wren-cpuprofile-"));
const env = benchEnv(dataDir, await freePort());
const seeded = await seed(env, {
  statuses: 1_000,
  authors: 100,
  ownStatuses: 4_000,
  followTargets: 4_000,
});
const probes = [...readProbes(seeded), ...writeProbes(seeded)].filter((p) =>
  wanted.length === 0 ? readProbes(seeded).some((r) => r.name === p.name) : wanted.includes(p.name),
);
const wren = await startWrenServer({
  ...env,
  NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}`,
});
try {
  for (const probe of probes) {
    const result = await runLoad({
      url: `${env.WREN_PUBLIC_URL}${probe.path}`,
      method: probe.method,
      connections: 10,
      duration: 5,
      ...(probe.headers ? { headers: probe.headers } : {}),
      ...(probe.body === undefined ? {} : { body: probe.body }),
      ...(probe.paths ? { paths: probe.paths } : {}),
    });
    process.stdout.write(`${probe.name}: ${Math.round(result.rps)} req/s\n`);
  }
} finally {
  await wren.stop();
}

const file = await profileIn(profileDir);
for (const line of await topSelfTime(file)) process.stdout.write(`${line}\n`);
process.stdout.write(`profile: ${file}\n`);
