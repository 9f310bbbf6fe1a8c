// `node bench/read-ratios.ts [tree…] [--rounds N] [--seconds S] [--floor]`: the reads of the bench
// (and the no-op `GET /api/v1/custom_emojis`) as ratios to the bare server answering the same
// bytes, as `npm run bench` reports them, without the rest of the bench: for checking the reads
// targets of one or more checkouts (default: this one) on one seeded data directory, one after the
// other. `--floor` measures only the no-op beside Hono alone (scenarios/framework-floor.ts).
// Ratios are measured against a reference in the same run, so they mean more than requests per
// second on a shared machine; two trees are still best compared by CPU (compare-trees.ts).

import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../test/helpers/server.ts";
import { adHocProbes } from "./lib/ad-hoc-probes.ts";
import { compareWithBare } from "./lib/compare.ts";
import { startWrenServer } from "./lib/processes.ts";
import { benchEnv, seed } from "./lib/seed.ts";
import { floorProbes, measureFrameworkFloor } from "./scenarios/framework-floor.ts";
import { readProbes } from "./scenarios/reads.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "3" },
    seconds: { type: "string", default: "3" },
    floor: { type: "boolean", default: false },
  },
});
const trees = positionals.length > 0 ? positionals.map((t) => resolve(t)) : [undefined];
const env = benchEnv(await mkdtemp(join(tmpdir(), "wren-read-ratios-")), await freePort());
const seeded = await seed(env, { statuses: 1_000, authors: 100 });
const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
const probes = [...readProbes(seeded), ...adHocProbes(["GET /api/v1/custom_emojis"], seeded.token)];
for (const tree of trees) {
  const wren = await startWrenServer(env, tree === undefined ? {} : { tree });
  const wrenUrl = env.WREN_PUBLIC_URL as string;
  try {
    const options = {
      rounds: Number(values.rounds),
      duration: Number(values.seconds),
      connections: 10,
      warmUp: 1,
    };
    process.stdout.write(`${tree ?? "this tree"}:\n`);
    if (values.floor) {
      const floor = await measureFrameworkFloor(wrenUrl, floorProbes(seeded), options);
      for (const f of floor) {
        process.stdout.write(
          `  ${f.name}: of bare, Wren ${percent(f.wrenToBare)}, Hono alone ${percent(f.honoToBare)}, with Wren's headers ${percent(f.headersToBare)}, bare with Wren's headers ${percent(f.bareHeadersToBare)}; Wren ${percent(f.wrenToHeaders)} of Hono with Wren's headers (${[f.wrenRps, f.honoRps, f.headersRps, f.bareHeadersRps, f.bareRps].map(Math.round).join(" / ")} req/s)\n`,
        );
      }
      continue;
    }
    const results = await compareWithBare(wrenUrl, probes, options);
    for (const r of results) {
      process.stdout.write(
        `  ${r.name}: ${percent(r.ratio)} (${Math.round(r.wrenRps)} vs ${Math.round(r.referenceRps)} req/s)\n`,
      );
    }
  } finally {
    await wren.stop();
  }
}
