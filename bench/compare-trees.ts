// `node bench/compare-trees.ts <before-tree> [after-tree] [--rounds N] [--seconds S]
// [--probe NAME|"GET /path"]… [--instructions]`: how much work two checkouts of Wren (e.g. a `git worktree`
// of the last commit and the working tree) do per request under the same read probes, on one
// seeded data directory, the two servers started in turn, round after round.
//
// By default: server CPU time per request under load. On these shared virtual machines one
// measurement can be 50% off the next; interference only ever adds CPU time, so the minimum
// over rounds is the figure to compare (the median is printed beside it). With --instructions:
// instructions per request counted by valgrind's callgrind (the least of three windows of 100
// sequential requests per probe, after 100 to warm up), which other machines' load does not
// change; repeated runs of the same tree still differ by a few percent (JIT and garbage
// collection timing). A server under callgrind needs a minute or so to start.

import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../test/helpers/server.ts";
import { adHocProbes } from "./lib/ad-hoc-probes.ts";
import type { Probe } from "./lib/compare.ts";
import { cpuMilliseconds, runLoad, startWrenServer } from "./lib/processes.ts";
import { benchEnv, seed } from "./lib/seed.ts";
import { median } from "./lib/stats.ts";
import { readProbes } from "./scenarios/reads.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "3" },
    probe: { type: "string", multiple: true },
    instructions: { type: "boolean", default: false },
  },
});
const [before, after = new URL("..", import.meta.url).pathname] = positionals;
if (before === undefined) {
  process.stderr.write("usage: node bench/compare-trees.ts <before-tree> [after-tree]\n");
  process.exit(2);
}
const trees = { before: resolve(before), after: resolve(after) };

const dataDir = await mkdtemp(join(tmpdir(), "wren-compare-"));
const env = benchEnv(dataDir, await freePort());
const seeded = await seed(env, { statuses: 1_000, authors: 100 });
const wanted = values.probe ?? [];
// Named read probes, or ad-hoc ones written as "GET /api/v1/…" (sent with the viewer's token).
const probes = [
  ...readProbes(seeded).filter((p) => wanted.length === 0 || wanted.includes(p.name)),
  ...adHocProbes(wanted, seeded.token),
];

type Which = keyof typeof trees;
const samples = new Map<string, Record<Which, number[]>>();
const record = (name: string, which: Which, value: number) => {
  const s = samples.get(name) ?? { before: [], after: [] };
  s[which].push(value);
  samples.set(name, s);
};

/** Instructions per request of each probe in one callgrind-run server (counters zeroed, dumped). */
async function countInstructions(which: Which): Promise<void> {
  const outDir = await mkdtemp(join(tmpdir(), "wren-callgrind-"));
  const wren = await startWrenServer(env, {
    tree: trees[which],
    wrapper: ["valgrind", "-q", "--tool=callgrind", `--callgrind-out-file=${outDir}/out.%p`],
  });
  const pid = String(wren.process.pid);
  // Windows of 100 requests after 100 to warm up; the optimising compiler may still be at work
  // in any one window (it runs on other threads, counted too), so each probe's least is taken.
  const n = 100;
  const windows = 3;
  for (const [i, probe] of probes.entries()) {
    const get = async () =>
      (
        await fetch(`${env.WREN_PUBLIC_URL}${probe.path}`, { headers: probe.headers ?? {} })
      ).arrayBuffer();
    for (let k = 0; k < n; k++) await get();
    for (let w = 0; w < windows; w++) {
      execFileSync("callgrind_control", ["-z", pid], { stdio: "ignore" });
      for (let k = 0; k < n; k++) await get();
      execFileSync("callgrind_control", ["-d", `probe${i}`, pid], { stdio: "ignore" });
    }
  }
  await wren.stop();
  const least = new Map<number, number>();
  for (const file of await readdir(outDir)) {
    const text = await readFile(join(outDir, file), "utf8");
    const index = /^desc: Trigger: .*\bprobe(\d+)\s*$/m.exec(text)?.[1];
    const total = (/^summary: (\d+)/m.exec(text) ?? /^totals: (\d+)/m.exec(text))?.[1];
    if (index === undefined || total === undefined) continue;
    const i = Number(index);
    least.set(i, Math.min(least.get(i) ?? Number.POSITIVE_INFINITY, Number(total) / n));
  }
  for (const [i, perRequest] of least) record((probes[i] as Probe).name, which, perRequest);
}

for (let round = 0; round < Number(values.rounds); round++) {
  const order: Which[] = round % 2 === 0 ? ["before", "after"] : ["after", "before"];
  for (const which of order) {
    if (values.instructions) {
      await countInstructions(which);
      continue;
    }
    const wren = await startWrenServer(env, { tree: trees[which] });
    const pid = wren.process.pid as number;
    for (const probe of probes) {
      const spec = {
        url: `${env.WREN_PUBLIC_URL}${probe.path}`,
        method: probe.method,
        connections: 10,
        duration: 1,
        ...(probe.headers ? { headers: probe.headers } : {}),
      };
      await runLoad(spec); // warm-up: JIT and caches
      const start = await cpuMilliseconds(pid);
      const result = await runLoad({ ...spec, duration: Number(values.seconds) });
      record(
        probe.name,
        which,
        (((await cpuMilliseconds(pid)) - start) * 1000) / Math.max(result.requests, 1),
      );
    }
    await wren.stop();
  }
}

const us = (n: number) =>
  values.instructions ? `${(n / 1e6).toFixed(2)}M instructions` : `${Math.round(n)} µs`;
for (const [name, s] of samples) {
  const [b, a] = [Math.min(...s.before), Math.min(...s.after)];
  process.stdout.write(
    `${name}: before ${us(b)} (median ${us(median(s.before))}), after ${us(a)} ` +
      `(median ${us(median(s.after))}): ${a <= b ? "" : "+"}${Math.round((a / b - 1) * 100)}%\n`,
  );
}
