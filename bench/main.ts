// `npm run bench [-- --quick]`: Wren against references measured in the same run (DESIGN and
// issue 7), on the json-file backend and then on PostgreSQL (issue 16; the local server at
// 127.0.0.1:5432, a database created and dropped per measurement). The quick run is a small
// version for a smoke check (about two minutes); the full run also measures the scale curves and
// writes docs/PERFORMANCE.md with a chart. `--json-file-only` skips PostgreSQL. Streaming and Web
// Push (issue 18) are measured once, on the json-file backend.

import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../test/helpers/server.ts";
import { type Comparison, compareWithBare, type RoundOptions } from "./lib/compare.ts";
import { residentMegabytes, startWrenServer } from "./lib/processes.ts";
import { rawDurableWriteRate } from "./lib/raw-writes.ts";
import { removeAtExit } from "./lib/removal.ts";
import { printSummary, type ScaleResult, writeReport } from "./lib/report.ts";
import { benchEnv, seed } from "./lib/seed.ts";
import { type FederationProfile, measureFederation } from "./scenarios/federation.ts";
import {
  type FloorResult,
  floorProbes,
  measureFrameworkFloor,
} from "./scenarios/framework-floor.ts";
import { measurePostgres, type PostgresProfile } from "./scenarios/postgres.ts";
import { measurePush, type PushProfile } from "./scenarios/push.ts";
import { readProbes } from "./scenarios/reads.ts";
import { measureStreaming, type StreamingProfile } from "./scenarios/streaming.ts";
import { writeProbes } from "./scenarios/writes.ts";

const quick = process.argv.includes("--quick");
const withPostgres = !process.argv.includes("--json-file-only");
const profile = quick
  ? // One round of reads: the quick run is a smoke check of about two minutes.
    { sizes: [1_000], readRounds: 1, rounds: 2, duration: 2, writeWarmUp: 1, writeTargets: 8_000 }
  : {
      sizes: [1_000, 100_000, 1_000_000],
      readRounds: 3,
      rounds: 3,
      duration: 4,
      writeWarmUp: 4,
      // Favourites and follows each use a target once: the warm-up and three rounds at up to
      // ~3,500/s on a fast machine.
      writeTargets: 60_000,
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

// Issue 18: 10,000 idle WebSockets, one public status to 1,000 subscribers, 2,000 pushes; quick:
// a tenth of the connections and a fifth of the subscribers and pushes.
const streamingProfile: StreamingProfile = quick
  ? { connections: 1_000, subscribers: 200, rounds: 3 }
  : { connections: 10_000, subscribers: 1_000, rounds: 5 };
const pushProfile: PushProfile = quick
  ? { notifications: 100, subscriptions: 4, encryptions: 500 }
  : { notifications: 500, subscriptions: 4, encryptions: 2_000 };

const benchStarted = performance.now();

/** Progress on stderr, with the seconds since the start (the quick run should stay near two minutes). */
function log(message: string): void {
  const seconds = ((performance.now() - benchStarted) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`${seconds} s  ${message}\n`);
}

const readOptions: RoundOptions = {
  rounds: profile.readRounds,
  duration: profile.duration,
  connections: 10,
  // A second of each probe first: the first round no longer meets cold code and empty memos.
  warmUp: 1,
};
const writeOptions: RoundOptions = {
  rounds: profile.rounds,
  duration: profile.duration,
  connections: 50,
  // Creates ran 25-35% slower in their first 4 s of load than after (the optimising compiler
  // still at work on the write paths, which the reads before them never ran): without it, the
  // median round of three measured a server still warming up.
  warmUp: profile.writeWarmUp,
};

// PostgreSQL: the same reads at the json-file run's smaller sizes (PostgreSQL at 10M statuses:
// bench/postgres-scale.ts), the same writes; quick: one short round and a smaller federation.
const postgresProfile: PostgresProfile = {
  sizes: profile.sizes.filter((size) => size <= 100_000),
  readOptions: quick ? { ...readOptions, duration: 1 } : readOptions,
  writeOptions: quick ? { ...writeOptions, rounds: 1, duration: 1 } : writeOptions,
  // Enough favourite and follow targets for the warm-up and the rounds at PostgreSQL's pace
  // (up to ~1,500/s; quick: two seconds).
  writeTargets: quick ? 1_000 : 25_000,
  twoProcessProbes: quick ? 2 : 4,
  federation: quick
    ? { ...federationProfile, servers: 20, activities: 100, senders: 10 }
    : federationProfile,
};

const scale: ScaleResult[] = [];
let floor: FloorResult[] = [];
let writes: Comparison[] = [];
let rawWrites = 0;
for (const [index, size] of profile.sizes.entries()) {
  const dataDir = await mkdtemp(join(tmpdir(), "wren-bench-"));
  removeAtExit(dataDir);
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
      log("the framework's floor…");
      floor = await measureFrameworkFloor(
        env.WREN_PUBLIC_URL as string,
        floorProbes(seeded),
        readOptions,
      );
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
}

const { fanout, inbox } = await measureFederation(federationProfile, freePort, log);

const streaming = await measureStreaming(streamingProfile, log);
log("push…");
const push = await measurePush(pushProfile);

const postgres = withPostgres ? await measurePostgres(postgresProfile, log) : undefined;

const results = {
  quick,
  date: new Date().toISOString(),
  scale,
  floor,
  writes,
  rawWrites,
  fanout,
  inbox,
  streaming,
  push,
  ...(postgres ? { postgres } : {}),
};
printSummary(results);
if (!quick) {
  const files = writeReport(results);
  for (const [path, content] of Object.entries(files)) await writeFile(path, content);
  log(`wrote ${Object.keys(files).join(", ")}`);
}
