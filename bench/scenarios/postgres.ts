// The PostgreSQL scenarios (issue 16): the json-file run's reads and writes against `wren serve`
// on a PostgreSQL database, the same reads split between two web processes on one database, and
// the federation scenarios (fan-out, inbox) — each a ratio to bare node:http (or to the signing
// and verifying loops) measured in the same run, so they compare with the json-file figures.

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../test/helpers/server.ts";
import type { Comparison, RoundOptions } from "../lib/compare.ts";
import { compareWithBare, pooled } from "../lib/compare.ts";
import { benchDatabase, postgresEnv } from "../lib/pg-database.ts";
import { residentMegabytes, startWrenServer } from "../lib/processes.ts";
import { rawPostgresWriteRate } from "../lib/raw-pg-writes.ts";
import type { ScaleResult } from "../lib/report.ts";
import { benchEnv, seed } from "../lib/seed.ts";
import { type FederationProfile, type FederationResults, measureFederation } from "./federation.ts";
import { readProbes } from "./reads.ts";
import { writeProbes } from "./writes.ts";

export interface PostgresProfile {
  sizes: number[];
  readOptions: RoundOptions;
  writeOptions: RoundOptions;
  writeTargets: number;
  /** Read probes the two-process scenario runs (the first N of readProbes). */
  twoProcessProbes: number;
  federation: FederationProfile;
}

export interface PostgresResults {
  scale: ScaleResult[];
  writes: Comparison[];
  /**
   * Status inserts/s the database makes durable alone (lib/raw-pg-writes.ts), measured right
   * after the writes: the floor of the create scenario, as the raw file loop is json-file's.
   */
  rawInserts?: number;
  /** The reads split between two web processes on one database (first size). */
  twoProcess: Comparison[];
  /**
   * The first size's reads against a json-file server seeded alike, in the same rounds
   * (reference = json-file): issue 16's "within 80%" measured directly, not as two ratios to
   * bare servers taken minutes apart.
   */
  againstJsonFile: Comparison[];
  federation: FederationResults;
}

/** A database (and a data directory, for media) for one measurement, dropped afterwards. */
async function withDatabase<T>(
  work: (storageEnv: Record<string, string>, dataDir: string) => Promise<T>,
): Promise<T> {
  const db = await benchDatabase(`wren_bench_${process.pid}`);
  const dataDir = await mkdtemp(join(tmpdir(), "wren-bench-pg-"));
  try {
    return await work(postgresEnv(db.url), dataDir);
  } finally {
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function measurePostgres(
  profile: PostgresProfile,
  log: (message: string) => void,
): Promise<PostgresResults> {
  const scale: ScaleResult[] = [];
  let writes: Comparison[] = [];
  let rawInserts: number | undefined;
  let twoProcess: Comparison[] = [];
  let againstJsonFile: Comparison[] = [];
  for (const [index, size] of profile.sizes.entries()) {
    await withDatabase(async (storageEnv, dataDir) => {
      const env = { ...benchEnv(dataDir, await freePort()), ...storageEnv };
      const first = index === 0;
      log(`postgres: seeding ${size} statuses…`);
      const seedOptions = {
        statuses: size,
        authors: 100,
        ownStatuses: first ? profile.writeTargets : 0,
        followTargets: first ? profile.writeTargets : 0,
      };
      const seeded = await seed(env, seedOptions);
      const started = performance.now();
      const wren = await startWrenServer(env);
      const startupSeconds = (performance.now() - started) / 1000;
      const residentMb = await residentMegabytes(wren.process.pid as number);
      try {
        log(`postgres: reads at ${size} statuses…`);
        const probes = readProbes(seeded);
        const reads = await compareWithBare(
          env.WREN_PUBLIC_URL as string,
          probes,
          profile.readOptions,
        );
        scale.push({ statuses: size, startupSeconds, residentMb, reads });
        if (!first) return;
        log("postgres: reads beside json-file…");
        againstJsonFile = await beside(env, probes, seedOptions, profile);
        // A second, web-only process on the same database; the load is split between them.
        const secondEnv = { ...benchEnv(dataDir, await freePort()), ...storageEnv };
        const second = await startWrenServer(secondEnv, { role: "web" });
        try {
          log("postgres: reads split between two processes…");
          twoProcess = await compareWithBare(
            [env.WREN_PUBLIC_URL as string, secondEnv.WREN_PUBLIC_URL as string],
            probes.slice(0, profile.twoProcessProbes),
            profile.readOptions,
          );
        } finally {
          await second.stop();
        }
        log("postgres: writes…");
        writes = await compareWithBare(
          env.WREN_PUBLIC_URL as string,
          writeProbes(seeded),
          profile.writeOptions,
        );
      } finally {
        await wren.stop();
      }
      // Only the first size gets here (the others return after their reads).
      rawInserts = await rawPostgresWriteRate(storageEnv.WREN_DATABASE_URL as string, {
        seconds: profile.writeOptions.duration,
        concurrency: profile.writeOptions.connections,
      });
    });
  }
  const federation = await withDatabase((storageEnv) =>
    measureFederation(profile.federation, freePort, (m) => log(`postgres: ${m}`), storageEnv),
  );
  return { scale, writes, rawInserts, twoProcess, againstJsonFile, federation };
}

/**
 * Pairs of fresh processes compared: two processes of one tree and backend were seen 35% apart,
 * more than the backends differ, so the 80% target is judged on several pairs' rounds together.
 */
const BESIDE_PAIRS = 2;

/**
 * The probes against PostgreSQL and a json-file server seeded alike, round by round: each pair
 * a fresh `wren serve` on the seeded database and a fresh json-file server, both warmed
 * alike (the server that measured the reads before is warmer than a new json-file one).
 */
async function beside(
  env: Record<string, string>,
  probes: ReturnType<typeof readProbes>,
  seedOptions: Parameters<typeof seed>[1],
  profile: PostgresProfile,
): Promise<Comparison[]> {
  const runs: Comparison[][] = [];
  for (let pair = 0; pair < BESIDE_PAIRS; pair++) {
    // The seeded database and public URL (the records' own), listening on a port of its own.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const pg = await startWrenServer({ ...env, WREN_PORT: String(port) }, { listening: url });
    try {
      runs.push(await besideJsonFile(url, probes, seedOptions, profile));
    } finally {
      await pg.stop();
    }
  }
  return pooled(runs);
}

/** The probes against the PostgreSQL server at `url` and a new json-file server seeded alike. */
async function besideJsonFile(
  url: string,
  probes: ReturnType<typeof readProbes>,
  seedOptions: Parameters<typeof seed>[1],
  profile: PostgresProfile,
): Promise<Comparison[]> {
  const dataDir = await mkdtemp(join(tmpdir(), "wren-bench-beside-"));
  try {
    const env = benchEnv(dataDir, await freePort());
    const seeded = await seed(env, seedOptions);
    const jsonFile = await startWrenServer(env);
    try {
      return await compareWithBare(url, probes, profile.readOptions, {
        name: "json-file",
        url: env.WREN_PUBLIC_URL as string,
        probes: readProbes(seeded),
      });
    } finally {
      await jsonFile.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
