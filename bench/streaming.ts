// `node bench/streaming.ts [--connections 10000] [--subscribers 1000] [--rounds 5]
// [--data-dir DIR] [--tree DIR]…`: the streaming scenario of `npm run bench`
// (bench/scenarios/streaming.ts) alone. `--data-dir` keeps the seeded directory for the next run,
// which then seeds nothing; `--tree` runs another checkout of Wren (e.g. `git archive` of the last
// commit) on the same data after this one, and `--repeat N` runs them all N times in turn.

import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { measureStreaming, type StreamingResult } from "./scenarios/streaming.ts";

const { values } = parseArgs({
  options: {
    connections: { type: "string", default: "10000" },
    subscribers: { type: "string", default: "1000" },
    rounds: { type: "string", default: "5" },
    "data-dir": { type: "string" },
    tree: { type: "string", multiple: true },
    repeat: { type: "string", default: "1" },
  },
});
const profile = {
  connections: Number(values.connections),
  subscribers: Number(values.subscribers),
  rounds: Number(values.rounds),
};
const trees = [undefined, ...(values.tree ?? []).map((t) => resolve(t))];
const log = (message: string) => process.stderr.write(`${message}\n`);

function print(label: string, r: StreamingResult): void {
  const lines = [
    `${label}: nobody connected: the POST answered after ${r.aloneMs.toFixed(0)} ms (server CPU ${r.aloneCpuMs.toFixed(0)} ms)`,
    `${label}: idle: ${r.connections} WebSockets opened in ${r.openSeconds.toFixed(1)} s; server resident ` +
      `${r.residentBeforeMb.toFixed(0)} MB → ${r.residentAfterMb.toFixed(0)} MB: ${r.kibPerConnection.toFixed(1)} KiB per connection`,
    ...r.fanouts.map(
      (f) =>
        `${label}: fan-out to ${r.subscribers} subscribers (${f.viewers} users): last received after ` +
        `${f.lastMs.toFixed(0)} ms (median of ${f.rounds.length}; ${f.rounds.map((t) => t.toFixed(0)).join(", ")}); ` +
        `the POST answered after ${f.postMs.toFixed(0)} ms; server CPU ${f.cpuMs.toFixed(0)} ms per round`,
    ),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}

for (let i = 0; i < Number(values.repeat); i++) {
  for (const tree of trees) {
    const result = await measureStreaming(profile, log, {
      ...(tree ? { tree } : {}),
      ...(values["data-dir"] ? { dataDir: values["data-dir"] } : {}),
    });
    print(tree ?? "this tree", result);
  }
}
