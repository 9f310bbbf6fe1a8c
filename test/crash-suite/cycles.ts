// The crash cycles: start `wren serve` on one data directory, check the last kill left nothing
// wrong, write from several clients at once, SIGKILL at a random moment, and again. Before each
// start a poll closing a few seconds later is seeded, so some deadlines fall while the server is
// dead or mid-kill: the durable queue must still close them after the restart. After each
// restart the posts the kill cut off are retried with their Idempotency-Key and must exist once.
// Every other restart is made as pid 1 in a container makes it: the new process finds the killed
// server's lock naming its own pid (faults.ts), and must start all the same.

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStatus } from "../../src/services/statuses/create-status.ts";
import { freePort } from "../helpers/server.ts";
import {
  type SeededUser,
  seedUsers,
  spawnWren,
  type WrenProcess,
  withOfflineServices,
} from "../helpers/wren-process.ts";
import { checkAcknowledged, checkIndexes, overduePolls, scanDataDir } from "./checks.ts";
import { lockWithOwnPid } from "./faults.ts";
import { Ledger } from "./ledger.ts";
import { checkRetriedOnce, retryCutOffPosts } from "./retries.ts";
import { type Random, runWorkload, seededRandom } from "./workload.ts";

export interface CrashOptions {
  cycles: number;
  users: number;
  seed: number;
  /** Longest time writes run before the kill, after the first acknowledged one. */
  maxRunMs: number;
  /**
   * Poll votes in the mix (default on). A vote is two writes, the vote then the poll's counts;
   * a kill between them once left the counts one short; local polls are now counted from their
   * votes (src/views/poll-tally.ts), which the index check holds them to.
   */
  votes?: boolean;
  log?: (line: string) => void;
}

export interface CrashSummary {
  cycles: number;
  acknowledged: number;
  statuses: number;
  shortPollsClosed: number;
  /** Posts cut off by a kill and retried with their Idempotency-Key after the restart. */
  retriedPosts: number;
  /** Restarts that found the killed server's lock naming their own pid. */
  pidReuseRestarts: number;
}

/** Mastodon's shortest poll is five minutes: dating the records back makes one close in seconds. */
const POLL_SECONDS = 300;

async function seedShortPoll(dataDir: string, user: SeededUser, ledger: Ledger, inMs: number) {
  const offset = POLL_SECONDS * 1000 - inMs;
  const clock = { now: () => new Date(Date.now() - offset) };
  const status = await withOfflineServices(
    dataDir,
    (ctx) =>
      createStatus(ctx, {
        accountId: user.id,
        applicationId: null,
        text: "closes soon",
        visibility: "public",
        poll: { options: ["a", "b"], expiresIn: POLL_SECONDS },
      }),
    clock,
  );
  ledger.shortPolls.push({
    pollId: status.pollId as string,
    statusId: status.id,
    expiresAt: Date.now() + inMs,
  });
}

/** Waits (server running) until every short poll past its deadline is closed on disk. */
async function waitForPolls(dataDir: string, ledger: Ledger): Promise<string[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const open = overduePolls(await scanDataDir(dataDir), ledger, Date.now(), 1000);
    if (open.length === 0 || Date.now() > deadline) return open;
    await new Promise((r) => setTimeout(r, 250));
  }
}

function fail(what: string, problems: string[]): void {
  if (problems.length === 0) return;
  const shown = problems.slice(0, 20).join("\n  ");
  throw new Error(`${what} (${problems.length}):\n  ${shown}`);
}

/** Starts the server; then the posts cut off by the last kill are retried and checked. */
async function startAndRetry(
  dataDir: string,
  ledger: Ledger,
  env: Record<string, string>,
): Promise<WrenProcess> {
  const server = await spawnWren(dataDir, await freePort(), env);
  fail("retried posts not answered", await retryCutOffPosts(server.url, ledger));
  fail(
    "retried posts not stored exactly once",
    checkRetriedOnce(await scanDataDir(dataDir), ledger),
  );
  return server;
}

async function verifyRunning(
  dataDir: string,
  server: WrenProcess,
  users: SeededUser[],
  ledger: Ledger,
) {
  const scan = await scanDataDir(dataDir);
  fail("indexes disagree with the files", await checkIndexes(server.url, users, scan));
  fail("overdue polls still open after the restart", await waitForPolls(dataDir, ledger));
}

async function killMidTraffic(
  server: WrenProcess,
  users: SeededUser[],
  ledger: Ledger,
  random: Random,
  options: CrashOptions,
): Promise<string[]> {
  const workload = runWorkload(server.url, users, ledger, random, { votes: options.votes ?? true });
  await Promise.race([workload.firstAck, workload.done]);
  await new Promise((r) => setTimeout(r, random.next() * options.maxRunMs));
  await server.kill("SIGKILL");
  await workload.done;
  return workload.serverErrors;
}

export async function runCrashCycles(options: CrashOptions): Promise<CrashSummary> {
  const log = options.log ?? (() => {});
  const random = seededRandom(options.seed);
  const dataDir = await mkdtemp(join(tmpdir(), "wren-crash-suite-"));
  const ledger = new Ledger();
  let server: WrenProcess | undefined;
  /** The lock the last killed server left (the next start as its pid finds it). */
  let killedLock: string | undefined;
  let pidReuseRestarts = 0;
  const restartEnv = (cycle: number) => {
    if (killedLock === undefined || cycle % 2 === 0) return {};
    pidReuseRestarts++;
    return lockWithOwnPid(killedLock);
  };
  try {
    const names = Array.from({ length: options.users }, (_, i) => `crash${i}`);
    const users = await seedUsers(dataDir, names);
    for (let cycle = 0; cycle < options.cycles; cycle++) {
      const pollIn = 500 + Math.floor(random.next() * 4000);
      await seedShortPoll(dataDir, users[cycle % users.length] as SeededUser, ledger, pollIn);
      server = await startAndRetry(dataDir, ledger, restartEnv(cycle));
      await verifyRunning(dataDir, server, users, ledger);
      const before = ledger.acknowledged;
      const errors = await killMidTraffic(server, users, ledger, random, options);
      server = undefined;
      fail("server errors during the writes", errors);
      killedLock = await readFile(join(dataDir, "wren.lock"), "utf8");

      const scan = await scanDataDir(dataDir);
      fail("torn files after SIGKILL", scan.torn);
      fail("acknowledged writes lost", checkAcknowledged(scan, ledger));
      log(
        `cycle ${cycle + 1}/${options.cycles}: ${ledger.acknowledged - before} writes acknowledged, killed, files intact`,
      );
    }
    // A last clean start: everything checked once more, then a graceful stop.
    server = await startAndRetry(dataDir, ledger, restartEnv(options.cycles));
    const lastDeadline = Math.max(...ledger.shortPolls.map((p) => p.expiresAt));
    await new Promise((r) => setTimeout(r, Math.max(0, lastDeadline + 1500 - Date.now())));
    await verifyRunning(dataDir, server, users, ledger);
    const code = await server.kill("SIGTERM");
    server = undefined;
    if (code !== 0) throw new Error(`wren serve stopped with ${code} after SIGTERM`);
    return {
      cycles: options.cycles,
      acknowledged: ledger.acknowledged,
      statuses: ledger.statuses.size,
      shortPollsClosed: ledger.shortPolls.length,
      retriedPosts: ledger.retried,
      pidReuseRestarts,
    };
  } finally {
    await server?.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  }
}
