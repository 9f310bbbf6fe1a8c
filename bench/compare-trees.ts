// `node bench/compare-trees.ts <before-tree> [after-tree] [--rounds N] [--seconds S]
// [--probe NAME]… [--instructions]`: how much work two checkouts of Wren (e.g. a `git worktree`
// of the last commit and the working tree) do per request under the same read probes, on one
// seeded data directory, the two servers started in turn, round after round.
//
// By default: server CPU time per request under load. On these shared virtual machines one
// measurement can be 50% off the next; interference only ever adds CPU time, so the minimum
// over rounds is the figure to compare (the median is printed beside it). With --instructions:
// instructions per request counted by valgrind's callgrind (100 sequential requests per probe
// after 100 to warm up), which other machines' load does not change; repeated runs of the
// same tree still differ by up to ±5% (JIT and garbage collection timing). A server under
// callgrind needs a minute or so to start.

import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../test/helpers/server.ts";
import { type Child, cpuMilliseconds, runLoad } from "./lib/processes.ts";
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
const probes = readProbes(seeded).filter((p) => wanted.length === 0 || wanted.includes(p.name));

/** `wren serve` from a checkout (its own node_modules or a link to one), under `wrapper`. */
async function serve(tree: string, wrapper: string[] = []): Promise<Child["process"]> {
  const [command, ...args] = [...wrapper, process.execPath, join(tree, "src/cli/main.ts"), "serve"];
  const child = spawn(command as string, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${tree}: wren serve exited`);
    try {
      if ((await fetch(`${env.WREN_PUBLIC_URL}/api/v1/instance`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

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
  const child = await serve(trees[which], [
    "valgrind",
    "-q",
    "--tool=callgrind",
    `--callgrind-out-file=${outDir}/out.%p`,
  ]);
  const pid = String(child.pid);
  const n = 100;
  for (const [i, probe] of probes.entries()) {
    const get = async () =>
      (
        await fetch(`${env.WREN_PUBLIC_URL}${probe.path}`, { headers: probe.headers ?? {} })
      ).arrayBuffer();
    for (let k = 0; k < n; k++) await get();
    execFileSync("callgrind_control", ["-z", pid], { stdio: "ignore" });
    for (let k = 0; k < n; k++) await get();
    execFileSync("callgrind_control", ["-d", `probe${i}`, pid], { stdio: "ignore" });
  }
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  for (const file of await readdir(outDir)) {
    const text = await readFile(join(outDir, file), "utf8");
    const index = /^desc: Trigger: .*\bprobe(\d+)\s*$/m.exec(text)?.[1];
    const total = (/^summary: (\d+)/m.exec(text) ?? /^totals: (\d+)/m.exec(text))?.[1];
    const probe = index === undefined ? undefined : probes[Number(index)];
    if (probe && total) record(probe.name, which, Number(total) / n);
  }
}

for (let round = 0; round < Number(values.rounds); round++) {
  const order: Which[] = round % 2 === 0 ? ["before", "after"] : ["after", "before"];
  for (const which of order) {
    if (values.instructions) {
      await countInstructions(which);
      continue;
    }
    const child = await serve(trees[which]);
    const pid = child.pid as number;
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
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
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
