// The federation scenarios on one Wren and one set of simulated peers: the peers start first
// (their ports are the remote accounts' origins), the data directory is seeded, Wren starts
// with private addresses allowed (everything is on loopback), then fan-out and inbox run.

import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Peers, startPeers } from "../lib/peers.ts";
import { startWrenServer } from "../lib/processes.ts";
import { removeAtExit } from "../lib/removal.ts";
import { benchEnv } from "../lib/seed.ts";
import { type FederationSeeded, seedFederation } from "../lib/seed-federation.ts";
import { type FanoutResult, measureFanout } from "./fanout.ts";
import { type InboxResult, measureInbox } from "./inbox.ts";

export interface FederationProfile {
  servers: number;
  followersPerServer: number;
  /** Processes the simulated servers are spread over. */
  peerProcesses: number;
  fanoutRounds: number;
  senders: number;
  activities: number;
  inboxRounds: number;
}

export interface FederationResults {
  fanout: FanoutResult;
  inbox: InboxResult;
}

/**
 * Starts the simulated peers, seeds a data directory and starts Wren on it, runs `measure`,
 * then stops everything. `freePort` is asked only once the peers listen: a port found free
 * before could be theirs. `storageEnv` picks the backend (e.g. a fresh PostgreSQL database);
 * empty: json-file in the data directory.
 */
export async function withFederation<T>(
  profile: Pick<
    FederationProfile,
    "servers" | "followersPerServer" | "peerProcesses" | "senders"
  > & {
    rsaBits?: number;
  },
  freePort: () => Promise<number>,
  log: (message: string) => void,
  measure: (url: string, peers: Peers, seeded: FederationSeeded, serverPid: number) => Promise<T>,
  storageEnv: Record<string, string> = {},
  /** The checkout whose server is measured (default: this one), to compare two in one run. */
  tree?: string,
): Promise<T> {
  log(`starting ${profile.servers} simulated servers…`);
  const peers = await startPeers({
    servers: profile.servers,
    actorsPerServer: profile.followersPerServer,
    processes: profile.peerProcesses,
  });
  const dataDir = await mkdtemp(join(tmpdir(), "wren-bench-fed-"));
  removeAtExit(dataDir);
  try {
    const env: Record<string, string> = {
      ...benchEnv(dataDir, await freePort()),
      ...storageEnv,
      WREN_ALLOW_PRIVATE_ADDRESSES: "true",
      // Set WREN_BENCH_WREN_NODE_OPTIONS=--cpu-prof (etc.) to profile the server under test.
      ...(process.env.WREN_BENCH_WREN_NODE_OPTIONS
        ? { NODE_OPTIONS: process.env.WREN_BENCH_WREN_NODE_OPTIONS }
        : {}),
    };
    log(`seeding ${profile.servers * profile.followersPerServer} remote followers…`);
    const seeded = await seedFederation(env, peers, {
      senders: profile.senders,
      ...(profile.rsaBits === undefined ? {} : { rsaBits: profile.rsaBits }),
    });
    const wren = await startWrenServer(env, tree === undefined ? {} : { tree });
    try {
      return await measure(
        env.WREN_PUBLIC_URL as string,
        peers,
        seeded,
        wren.process.pid as number,
      );
    } finally {
      await wren.stop();
    }
  } finally {
    await peers.stop();
  }
}

export function measureFederation(
  profile: FederationProfile,
  freePort: () => Promise<number>,
  log: (message: string) => void,
  storageEnv: Record<string, string> = {},
): Promise<FederationResults> {
  return withFederation(
    profile,
    freePort,
    log,
    async (url, peers, seeded) => {
      log(`fan-out to ${profile.servers} servers…`);
      const fanout = await measureFanout(url, peers, seeded, {
        rounds: profile.fanoutRounds,
        timeoutSeconds: 300,
      });
      log(`inbox: ${profile.activities} activities from ${profile.senders} senders…`);
      const inbox = await measureInbox(url, peers, seeded, {
        activities: profile.activities,
        rounds: profile.inboxRounds,
        concurrency: 50,
        timeoutSeconds: 300,
      });
      const { refused } = await peers.stats();
      if (refused > 0) log(`  fan-out: ${refused} deliveries failed signature verification`);
      return { fanout, inbox };
    },
    storageEnv,
  );
}
