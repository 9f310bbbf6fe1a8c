// `npm run bench [-- --quick]`: Wren against references measured in the same run (DESIGN and
// issue 7). The quick run is a small version for a smoke check (under two minutes); the full run
// also measures the scale curves and writes docs/PERFORMANCE.md with a chart.

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../test/helpers/server.ts";
import { type Comparison, compareWithBare, type RoundOptions } from "./lib/compare.ts";
import { startWrenServer } from "./lib/processes.ts";
import { rawDurableWriteRate } from "./lib/raw-writes.ts";
import { printSummary, type ScaleResult, writeReport } from "./lib/report.ts";
import { benchEnv, seed } from "./lib/seed.ts";
import { type FederationProfile, measureFederation } from "./scenarios/federation.ts";
import { readProbes } from "./scenarios/reads.ts";
import { writeProbes } from "./scenarios/writes.ts";

const quick = process.argv.includes("--quick");
const profile = quick
  ? // One round of reads: the quick run is a smoke check and must stay under two minutes.
    { sizes: [1_000], readRounds: 1, rounds: 2, duration: 2, writeTargets: 8_000 }
  : {
      sizes: [1_000, 100_000, 1_000_000],
      readRounds: 3,
      rounds: 3,
      duration: 4,
      writeTargets: 40_000,
    };
// Issue 7's fan-out (10,000 followers on 1,000 servers) and inbox scenarios; quick: a tenth of the
// fan-out and 300 activities.
const federationProfile: FederationProfile = quick
  ? {
      servers: 100,
      followersPerServer: 10,
      peerProcesses: 1,
      fanoutRounds: 1,
      senders: 30,
      activities: 300,
      inboxRounds: 1,
    }
  : {
      servers: 1_000,
      followersPerServer: 10,
      peerProcesses: 2,
      fanoutRounds: 3,
      senders: 200,
      activities: 2_000,
      inboxRounds: 3,
    };

async function residentMegabytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? Number.NaN);
  return kb / 1024;
}

const benchStarted = performance.now();

/** Progress on stderr, with the seconds since the start (the quick run must stay under two minutes). */
function log(message: string): void {
  const seconds = ((performance.now() - benchStarted) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`${seconds} s  ${message}\n`);
}

const readOptions: RoundOptions = {
  rounds: profile.readRounds,
  duration: profile.duration,
  connections: 10,
};
const writeOptions: RoundOptions = {
  rounds: profile.rounds,
  duration: profile.duration,
  connections: 50,
};

const scale: ScaleResult[] = [];
let writes: Comparison[] = [];
let rawWrites = 0;
for (const [index, size] of profile.sizes.entries()) {
  const dataDir = await mkdtemp(join(tmpdir(), "wren-bench-"));
  try {
    const env = benchEnv(dataDir, await freePort());
    const withWrites = index === 0;
    log(`seeding ${size} statuses…`);
    const seeded = await seed(env, {
      statuses: size,
      authors: 100,
      ownStatuses: withWrites ? profile.writeTargets : 0,
      followTargets: withWrites ? profile.writeTargets : 0,
    });
    log("starting wren…");
    const started = performance.now();
    const wren = await startWrenServer(env);
    const startupSeconds = (performance.now() - started) / 1000;
    const residentMb = await residentMegabytes(wren.process.pid as number);
    try {
      log(`reads at ${size} statuses…`);
      const reads = await compareWithBare(
        env.WREN_PUBLIC_URL as string,
        readProbes(seeded),
        readOptions,
      );
      scale.push({ statuses: size, startupSeconds, residentMb, reads });
      if (withWrites) {
        log("writes…");
        writes = await compareWithBare(
          env.WREN_PUBLIC_URL as string,
          writeProbes(seeded),
          writeOptions,
        );
        const sample = Buffer.from(
          JSON.stringify(
            await (await fetch(`${env.WREN_PUBLIC_URL}/api/v1/statuses/${seeded.statusId}`)).json(),
          ),
        );
        rawWrites = await rawDurableWriteRate(sample, {
          seconds: profile.duration,
          concurrency: 50,
        });
      }
    } finally {
      await wren.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

const { fanout, inbox } = await measureFederation(federationProfile, freePort, log);

const results = {
  quick,
  date: new Date().toISOString(),
  scale,
  writes,
  rawWrites,
  fanout,
  inbox,
};
printSummary(results);
if (!quick) {
  const files = writeReport(results);
  for (const [path, content] of Object.entries(files)) await writeFile(path, content);
  log(`wrote ${Object.keys(files).join(", ")}`);
}
