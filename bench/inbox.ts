// `node bench/inbox.ts [--quick] [--rounds N] [--activities N] [--tree DIR] [--postgres]`: the inbox scenario
// of `npm run bench` alone (a minute or two instead of the whole bench), for working on inbox
// throughput. Prints each round and the medians, with the server's CPU time per activity (the
// figure other processes' load changes least); writes nothing. `--tree` measures the server of
// another checkout (e.g. the last commit's, from `git worktree`) with this harness. To profile the server, set
// WREN_BENCH_WREN_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/…" (see bench/profile.ts). With
// `--postgres` the server runs on a PostgreSQL database made for the run (bench/lib/pg-database.ts).
// `--strace` counts the server's file system calls per activity in each round (strace attached to
// every thread; it slows the server, so that run's rates and CPU say nothing). `--statements`
// (with `--postgres`) counts the SQL statements per activity in each round, the most frequent
// listed, from the server's log (bench/lib/pg-log.ts; logging slows it too). With `--postgres`
// each round also prints the database's CPU per activity (every postgres process's, and its
// backends serving the bench's database alone; bench/lib/pg-cpu.ts).

import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../test/helpers/server.ts";
import { postgresCpu } from "./lib/pg-cpu.ts";
import { benchDatabase, postgresEnv } from "./lib/pg-database.ts";
import { logStatements, statementShapes } from "./lib/pg-log.ts";
import { parseStraceSummary, traceThreads } from "./lib/strace.ts";
import { withFederation } from "./scenarios/federation.ts";
import { measureInbox } from "./scenarios/inbox.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    activities: { type: "string" },
    tree: { type: "string" },
    postgres: { type: "boolean", default: false },
    strace: { type: "boolean", default: false },
    statements: { type: "boolean", default: false },
  },
});
const quick = values.quick as boolean;
// The full bench's inbox shape (200 senders, each on its own simulated server, 50 connections);
// fan-out's 10 followers per server are not needed here.
const senders = quick ? 50 : 200;
const activities = Number(values.activities ?? (quick ? 500 : 2_000));
const rounds = Number(values.rounds ?? (quick ? 1 : 3));

const log = (message: string) => process.stderr.write(`${message}\n`);
const CALLS = ["fsync", "fdatasync", "openat", "write", "rename", "unlink", "close"];
/** With --strace: each round's system calls per activity, logged when the round is processed. */
const tracer = (pid: number) => async () => {
  const dir = await mkdtemp(join(tmpdir(), "wren-inbox-strace-"));
  const file = join(dir, "strace.txt");
  const stop = await traceThreads(pid, file, CALLS);
  return async (count: number) => {
    await stop();
    const calls = parseStraceSummary(await readFile(file, "utf8"), CALLS);
    await rm(dir, { recursive: true, force: true });
    log(
      `calls per activity: ${CALLS.map((c) => `${c} ${((calls[c] ?? 0) / count).toFixed(2)}`).join(", ")}`,
    );
  };
};
const database = values.postgres
  ? await benchDatabase(`wren_bench_inbox_${process.pid}`)
  : undefined;
const statementLog = database && values.statements ? await logStatements(database.url) : undefined;
/** With --statements: each round's statements per activity, the most frequent shapes listed. */
const statementCounter = async () => {
  const statements = statementLog as NonNullable<typeof statementLog>;
  const from = await statements.offset();
  return async (count: number) => {
    const lines = await statements.since(from);
    log(`statements per activity: ${(lines.length / count).toFixed(2)}`);
    for (const [shape, n] of statementShapes(lines).slice(0, 25)) {
      log(`  ${(n / count).toFixed(2)}  ${shape}`);
    }
  };
};
/** With --postgres: each round's database CPU per activity, logged when the round is processed. */
const databaseCpu = async () => {
  const name = new URL((database as NonNullable<typeof database>).url).pathname.slice(1);
  const before = await postgresCpu(name);
  return async (count: number) => {
    const after = await postgresCpu(name);
    log(
      `PostgreSQL CPU per activity: ${((after.all - before.all) / count).toFixed(2)} ms ` +
        `(its backends: ${((after.ours - before.ours) / count).toFixed(2)} ms)`,
    );
  };
};
type RoundTracer = () => Promise<(count: number) => Promise<void>>;
/** Several tracers as one: all started as the round starts, all stopped when it is processed. */
const together =
  (tracers: RoundTracer[]): RoundTracer =>
  async () => {
    const stops = await Promise.all(tracers.map((start) => start()));
    return async (count) => {
      for (const stop of stops) await stop(count);
    };
  };
const tracersOf = (serverPid: number): RoundTracer[] => [
  ...(values.strace ? [tracer(serverPid)] : []),
  ...(statementLog ? [statementCounter] : []),
  ...(database ? [databaseCpu] : []),
];
const result = await withFederation(
  { servers: senders, followersPerServer: 1, peerProcesses: quick ? 1 : 2, senders },
  freePort,
  log,
  (url, peers, seeded, serverPid) => {
    log(`inbox: ${activities} activities from ${senders} senders, ${rounds} rounds…`);
    const tracers = tracersOf(serverPid);
    return measureInbox(url, peers, seeded, {
      activities,
      rounds,
      concurrency: 50,
      timeoutSeconds: 300,
      serverPid,
      ...(tracers.length > 0 ? { traceRound: together(tracers) } : {}),
    });
  },
  database ? postgresEnv(database.url) : {},
  values.tree,
).finally(() => database?.drop());
const r = (n: number) => Math.round(n);
for (const [i, round] of result.perRound.entries()) {
  log(
    `round ${i + 1}: accepted ${r(round.accepted)}/s, processed ${r(round.processed)}/s, ` +
      `verifyRequest loop ${r(round.verified)}/s, server CPU ${round.cpuMs?.toFixed(2)} ms/activity`,
  );
}
process.stdout.write(
  `inbox: accepted ${r(result.acceptedPerSecond)}/s, processed ${r(result.processedPerSecond)}/s, ` +
    `verifyRequest loop ${r(result.verifiedPerSecond)}/s, ` +
    `server CPU ${result.cpuMsPerActivity?.toFixed(2)} ms/activity (medians of ${rounds})\n`,
);
