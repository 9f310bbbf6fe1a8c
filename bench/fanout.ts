// `node bench/fanout.ts [--quick] [--rounds N] [--servers N] [--tree DIR]`: the fan-out scenario
// of `npm run bench` alone (one public status to 10 followers on each of 1,000 servers), for
// working on delivery. Prints each round (time to the first and the last server), the signing
// loop it is compared with, and the server's CPU time per delivery; writes nothing. `--tree`
// measures the server of another checkout with this harness. To profile the server, set
// WREN_BENCH_WREN_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/…". With `--postgres` the server
// runs on a PostgreSQL database made for the run (bench/lib/pg-database.ts), and the database's
// CPU per delivery (its backends for that database) is printed beside the server's; with
// `--statements` as well, the SQL statements per delivery, the most frequent shapes listed, from
// the server's log (bench/lib/pg-log.ts; logging slows it). With `--split`, the CPU per delivery
// over the measured rounds only (from each POST to the last arrival, the signing loop left out)
// by the server's kinds of thread, the peers, and the machine's busy share (bench/lib/thread-split.ts).
// `--rsa-bits 2048`: the sender's RSA key of that size instead of the 4096 bits Wren makes
// (Fedify's default), the signing loop's too (it signs with the same key).

import { parseArgs } from "node:util";
import { freePort } from "../test/helpers/server.ts";
import { postgresCpu } from "./lib/pg-cpu.ts";
import { benchDatabase, postgresEnv } from "./lib/pg-database.ts";
import { logStatements, statementShapes } from "./lib/pg-log.ts";
import { cpuMilliseconds } from "./lib/processes.ts";
import { describeSplit, type SplitSample, sampleSplit } from "./lib/thread-split.ts";
import { measureFanout } from "./scenarios/fanout.ts";
import { withFederation } from "./scenarios/federation.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    servers: { type: "string" },
    tree: { type: "string" },
    postgres: { type: "boolean", default: false },
    statements: { type: "boolean", default: false },
    split: { type: "boolean", default: false },
    "rsa-bits": { type: "string" },
  },
});
const quick = values.quick as boolean;
const servers = Number(values.servers ?? (quick ? 100 : 1_000));
const rounds = Number(values.rounds ?? (quick ? 1 : 3));

const log = (message: string) => process.stderr.write(`${message}\n`);
const database = values.postgres
  ? await benchDatabase(`wren_bench_fanout_${process.pid}`)
  : undefined;
const databaseName = database ? new URL(database.url).pathname.slice(1) : "";
const databaseCpu = async () => (database ? (await postgresCpu(databaseName)).ours : 0);
const statementLog = database && values.statements ? await logStatements(database.url) : undefined;
const { result, cpuMs, databaseMs } = await withFederation(
  {
    servers,
    followersPerServer: 10,
    peerProcesses: quick ? 1 : 2,
    senders: 1,
    ...(values["rsa-bits"] === undefined ? {} : { rsaBits: Number(values["rsa-bits"]) }),
  },
  freePort,
  log,
  async (url, peers, seeded, serverPid) => {
    log(`fan-out to ${servers} servers, ${rounds} rounds…`);
    const [before, databaseBefore] = [await cpuMilliseconds(serverPid), await databaseCpu()];
    const logFrom = await statementLog?.offset();
    const spans: [SplitSample, SplitSample][] = [];
    let start: SplitSample | undefined;
    const sample = () => sampleSplit(serverPid, peers.pids);
    const aroundRound = values.split
      ? {
          before: async () => {
            start = await sample();
          },
          after: async () => void spans.push([start as SplitSample, await sample()]),
        }
      : undefined;
    const result = await measureFanout(url, peers, seeded, {
      rounds,
      timeoutSeconds: 300,
      ...(aroundRound ? { aroundRound } : {}),
    });
    for (const line of spans.length > 0 ? describeSplit(spans, rounds * servers) : []) log(line);
    if (statementLog && logFrom !== undefined) {
      const statements = await statementLog.since(logFrom);
      const deliveries = (rounds + 1) * servers;
      log(`statements per delivery: ${(statements.length / deliveries).toFixed(2)}`);
      for (const [shape, n] of statementShapes(statements).slice(0, 25)) {
        log(`  ${(n / deliveries).toFixed(3)}  ${shape}`);
      }
    }
    return {
      result,
      cpuMs: (await cpuMilliseconds(serverPid)) - before,
      databaseMs: (await databaseCpu()) - databaseBefore,
    };
  },
  database ? postgresEnv(database.url) : {},
  values.tree,
).finally(() => database?.drop());
const s = (n: number) => n.toFixed(2);
log(`rounds (s to the last server): ${result.rounds.map(s).join(", ")}`);
// The warm-up post is delivered too: rounds + 1 fan-outs.
const deliveries = (rounds + 1) * result.servers;
const perDelivery = cpuMs / deliveries;
const databasePart = database ? `, database CPU ${s(databaseMs / deliveries)} ms/delivery` : "";
process.stdout.write(
  `fan-out: first ${s(result.firstSeconds)} s, last ${s(result.seconds)} s, ` +
    `signing loop ${s(result.signSeconds)} s (ratio ${s(result.ratio)}), ` +
    `server CPU ${s(perDelivery)} ms/delivery${databasePart} (medians of ${rounds})\n`,
);
