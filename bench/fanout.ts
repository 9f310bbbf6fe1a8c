// `node bench/fanout.ts [--quick] [--rounds N] [--servers N] [--tree DIR]`: the fan-out scenario
// of `npm run bench` alone (one public status to 10 followers on each of 1,000 servers), for
// working on delivery. Prints each round (time to the first and the last server), the signing
// loop it is compared with, and the server's CPU time per delivery; writes nothing. `--tree`
// measures the server of another checkout with this harness. To profile the server, set
// WREN_BENCH_WREN_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/…".

import { parseArgs } from "node:util";
import { freePort } from "../test/helpers/server.ts";
import { cpuMilliseconds } from "./lib/processes.ts";
import { measureFanout } from "./scenarios/fanout.ts";
import { withFederation } from "./scenarios/federation.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    servers: { type: "string" },
    tree: { type: "string" },
  },
});
const quick = values.quick as boolean;
const servers = Number(values.servers ?? (quick ? 100 : 1_000));
const rounds = Number(values.rounds ?? (quick ? 1 : 3));

const log = (message: string) => process.stderr.write(`${message}\n`);
const { result, cpuMs } = await withFederation(
  { servers, followersPerServer: 10, peerProcesses: quick ? 1 : 2, senders: 1 },
  freePort,
  log,
  async (url, peers, seeded, serverPid) => {
    log(`fan-out to ${servers} servers, ${rounds} rounds…`);
    const before = await cpuMilliseconds(serverPid);
    const result = await measureFanout(url, peers, seeded, { rounds, timeoutSeconds: 300 });
    return { result, cpuMs: (await cpuMilliseconds(serverPid)) - before };
  },
  {},
  values.tree,
);
const s = (n: number) => n.toFixed(2);
log(`rounds (s to the last server): ${result.rounds.map(s).join(", ")}`);
// The warm-up post is delivered too: rounds + 1 fan-outs.
const perDelivery = cpuMs / ((rounds + 1) * result.servers);
process.stdout.write(
  `fan-out: first ${s(result.firstSeconds)} s, last ${s(result.seconds)} s, ` +
    `signing loop ${s(result.signSeconds)} s (ratio ${s(result.ratio)}), ` +
    `server CPU ${s(perDelivery)} ms/delivery (medians of ${rounds})\n`,
);
